import path from 'node:path';

/**
 * Where the analysis worker is and how to start it. From TypeScript sources (tsx, Jest) the
 * worker is the .ts file, loaded through tsx's loader; compiled (dist/**), the .js file beside
 * this one, with no loader.
 */
export function analysisWorkerFile(): { filename: string; execArgv: string[] } {
  const fromSource = __filename.endsWith('.ts');
  return {
    filename: path.join(__dirname, fromSource ? 'analysis.worker.ts' : 'analysis.worker.js'),
    execArgv: fromSource ? ['--import', 'tsx'] : [],
  };
}
