import EditorWorker from 'monaco-editor/esm/vs/editor/editor.worker.js?worker';
import JsonWorker from 'monaco-editor/esm/vs/language/json/json.worker.js?worker';
import GraphQLWorker from 'monaco-graphql/esm/graphql.worker.js?worker';

/**
 * GraphiQL's editors (Monaco) run their language services in web workers. Vite builds each into
 * web/dist/assets, so they load from this server like every other file of the page (the page's
 * worker-src is 'self').
 */
window.MonacoEnvironment = {
  getWorker(_workerId: string, label: string): Worker {
    if (label === 'graphql') return new GraphQLWorker();
    if (label === 'json') return new JsonWorker();
    return new EditorWorker();
  },
};
