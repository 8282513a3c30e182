// Package store is the run store: one SQLite file (modernc.org/sqlite, pure
// Go, so cubectl builds with CGO_ENABLED=0) that keeps every LLM request and
// reply, every judgement, every collected or generated answer and a log of
// runs. Replies are written the moment they arrive, so an interrupted
// evaluation resumes without calling an endpoint twice (cli.md: "a second run
// with the same inputs makes no endpoint calls").
//
// Concurrency: the file is opened in WAL mode with a busy timeout. Writes go
// through one connection (SQLite has one writer anyway; queuing them in Go is
// cheaper than lock retries), reads through a small pool that runs beside the
// writer. Every Put returns only after its transaction has committed, so an
// acknowledged write survives the process being killed. synchronous=NORMAL is
// used: a power cut may roll back the last few commits (never corrupt the
// file), which only costs repeating those calls.
package store
