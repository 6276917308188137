// The synthetic analyses the benchmarks store are the tests' own (test/helpers), so both measure the same shape.
export { realisticAnalysis, syntheticAnalysis, syntheticTags } from '../../test/helpers/synthetic-analyses';
