// One row of the bench table: a measurement, its baseline measured in the same run, the ratio.
export const row = (measure, ours, baseline, baselineName) => ({
  measure,
  ours,
  baseline,
  baselineName,
  ratio: Number.isNaN(baseline) ? NaN : ours / baseline,
});
