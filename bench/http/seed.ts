// The synthetic analyses the benchmarks store are the tests' own (test/helpers), so both measure the same shape.
export { realisticAnalysis, syntheticAnalysis } from '../../test/helpers/synthetic-analyses';
