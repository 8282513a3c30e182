// Package stats holds the small statistics CuBE and its reports need:
// scipy-compatible trimmed mean, mean and sample SD, Pearson and Spearman
// correlation, a seeded percentile bootstrap and Krippendorff's α for
// interval data (Krippendorff 2011, "Computing Krippendorff's
// Alpha-Reliability").
//
// Every function reports an undefined result through an ok bool instead of
// returning NaN: the product shows such values as n/a and never lets a NaN
// leak into a mean, a chart or a JSON file.
package stats
