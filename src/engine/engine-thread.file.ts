import path from 'node:path';

/**
 * Where the engine's thread script is and how to start it. From TypeScript sources (tsx, Jest)
 * it is the .ts file, loaded through tsx's loader; compiled (dist/**), the .js file beside this
 * one, with no loader.
 */
export function engineThreadFile(): { filename: string; execArgv: string[] } {
  const fromSource = __filename.endsWith('.ts');
  return {
    filename: path.join(__dirname, fromSource ? 'engine.thread.ts' : 'engine.thread.js'),
    execArgv: fromSource ? ['--import', 'tsx'] : [],
  };
}
