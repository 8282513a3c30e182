// Package cli is the headless command line shared by cubectl and the
// desktop binary: evaluate, demo, validate, sweep, batch and version
// (cli.md), a thin adapter that prints what core/session does.
// Exit codes: 0 success, 1 bad input, 2 usage, 3 interrupted (resumable).
package cli
