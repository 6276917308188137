import v8 from 'node:v8';
import vm from 'node:vm';

/** V8's garbage collection, callable from a benchmark (a full collection, to weigh what stays held). */
export function collector(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}
