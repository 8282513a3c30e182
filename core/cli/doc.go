// Package cli is the headless command line shared by cubectl and the
// desktop binary: evaluate, demo, validate, batch and version (cli.md).
// Exit codes: 0 success, 1 bad input, 2 usage, 3 interrupted (resumable).
package cli
