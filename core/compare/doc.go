// Package compare answers "did version B of the system really get better
// than version A?" from two CuBE evaluations of the same questions: two
// answer sets of one workbook (the sample's rag and 系统B) or two runs
// (two workbooks or stores), paired by question id.
//
// For each judge and across judges it reports ΔCuBE, Δ of every normalised
// dimension and of the weighted total, ΔRecall@k, ΔMFSS total and Δ CoFE
// pass rate, each with a paired bootstrap 95 % interval (questions are
// resampled, the same indices for both sides, fixed seed), a plain verdict
// (明显更好 / 没有可检测的差异 / 明显更差) and the smallest difference the
// data could detect; how many questions changed for the better and the
// worse, the regressions worst first, whether the judges agree on the
// direction, and the bilingual sentences the CLI, the window and the report
// all show.
//
// Every CuBE figure comes from core/cube (cube.Replicator): this package
// pairs, resamples and compares, it does not compute CuBE itself. Nothing
// here touches a file, a window or the network.
package compare
