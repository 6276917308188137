// Lives with the test helpers, where its unit tests can reach it.
export { startServerProcess, stopServerProcesses, type ServerProcess } from '../../test/helpers/server-process';
