// Package profile reads and writes the evaluation profile (cli.md): the
// language, TOP-N, trimming, subset, weights, dimensions, judges, the
// generator, the target system and the reranker. A profile names the environment variable
// that holds each key and never holds a key itself, so it can be stored in a
// run record or shown in a report as it is.
package profile
