/*
 * Jest runs the longest test files first, so that no worker is left with a long file at the end
 * of the run. It knows how long each file took from its own cache; a fresh clone (CI) has none,
 * and Jest then orders by file size, which put the model and browse tests last and left one
 * worker running them alone. Here a file Jest has no time for takes its time from
 * durations.json (seconds, measured on a 2-core machine with `npx jest --json`; files under
 * 5 s are not listed and count as 1 s). Refresh it when the suite's shape changes.
 */
const { default: Sequencer } = require('@jest/test-sequencer');
const path = require('node:path');
const durations = require('./durations.json');

const root = path.resolve(__dirname, '../..');

class LongestFirst extends Sequencer {
  time(test) {
    const cached = super.time(test);
    if (cached !== undefined) return cached;
    return 1000 * (durations[path.relative(root, test.path).split(path.sep).join('/')] ?? 1);
  }
}

module.exports = LongestFirst;
