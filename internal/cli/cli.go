package cli

import (
	"fmt"
	"io"
	"os"
	"strings"

	"cubeworkbench/core/profile"
	"cubeworkbench/core/session"
)

// Exit codes (cli.md).
const (
	ExitOK          = 0
	ExitBadInput    = 1
	ExitUsage       = 2
	ExitInterrupted = 3
	// ExitTargetFailed: the system under test failed all or most questions,
	// so the verdict is undetermined (the summary and report are written).
	ExitTargetFailed = 4
)

// Exit codes of `evaluate --gate`, one per verdict, for scripts and CI: a
// deployable system exits ExitOK. They lie apart from the error codes so
// that a gate never reads as a failure of the tool.
const (
	ExitGateNeedsWork    = 10
	ExitGateNotReady     = 11
	ExitGateUndetermined = 12
)

// gateExit is the exit code of a verdict code under --gate.
func gateExit(verdict string) int {
	switch verdict {
	case "deployable":
		return ExitOK
	case "needs_work":
		return ExitGateNeedsWork
	case "not_ready":
		return ExitGateNotReady
	}
	return ExitGateUndetermined
}

const usage = `CuBE Workbench — evaluate a government-service RAG assistant (CuBE, MFSS, CoFE-RAG)

usage:
  cubectl evaluate WORKBOOK [--profile PROFILE.toml] [--out REPORT.xlsx] [--json SUMMARY.json]
                            [--store RUN.db] [--offline] [--yes] [--skip-bad-rows] [--stream-guides]
                            [--reask-unscorable] [--read-hidden] [--gate]
                                 --gate: exit 0 deployable, 10 needs work, 11 not ready, 12 undetermined
  cubectl demo [--out DIR] [--lang zh|en]
                                 the whole job on the bundled sample, offline
  cubectl validate WORKBOOK [--read-hidden] [--lang zh|en]
                                 schema check only; exit 1 when there are errors or nothing to evaluate
  cubectl sweep WORKBOOK [--chunkers fixed:128,fixed:256,…] [--retrievers bm25,dense,hybrid] [--png F] [--json F]
  cubectl batch export WORKBOOK --out REQUESTS.jsonl [--profile P] [--store RUN.db]
  cubectl batch import WORKBOOK RESULTS.jsonl [--store RUN.db]
` + compareUsage + generateUsage + `  cubectl kb export WORKBOOK --out DIR   one document per guide, to upload to RAGFlow, Dify, FastGPT or MaxKB
  cubectl version
CUBE_LANG=zh|en sets the language of every command (a --lang flag wins over it, it wins over the profile's).
exit codes: 0 ok, 1 bad input, 2 usage, 3 interrupted (resume from the store),
            4 the system under test failed at least half of its questions (verdict undetermined)
`

// EnvLang names the environment variable that sets the language of every
// command's messages, report and summary text (as it does the window's):
// a --lang flag wins over it, and it wins over the profile's language.
const EnvLang = "CUBE_LANG"

// envLang is CUBE_LANG as zh or en ("zh_CN.UTF-8" is zh), or def when it is
// unset or neither.
func envLang(def string) string {
	v := strings.ToLower(strings.TrimSpace(os.Getenv(EnvLang)))
	switch {
	case strings.HasPrefix(v, "zh"):
		return "zh"
	case strings.HasPrefix(v, "en"):
		return "en"
	}
	return def
}

// loadProfile reads a profile (the default one when path is "") with
// CUBE_LANG over its language.
func loadProfile(path string) (profile.Profile, error) {
	p := profile.Default()
	if path != "" {
		var err error
		if p, err = profile.Load(path); err != nil {
			return p, err
		}
	}
	p.Language = envLang(p.Language)
	return p, nil
}

// Main runs one subcommand and returns the process exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	if err := session.Startup(); err != nil {
		fmt.Fprintln(stderr, err) // leftover temporary files are no reason not to run
	}
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return ExitUsage
	}
	switch args[0] {
	case "version", "--version", "-v":
		fmt.Fprintf(stdout, "cube %s\n", session.Version)
		return ExitOK
	case "evaluate":
		return runEvaluate(args[1:], os.Stdin, stdout, stderr)
	case "demo":
		return runDemo(args[1:], os.Stdin, stdout, stderr)
	case "sweep":
		return runSweep(args[1:], stdout, stderr)
	case "batch":
		return runBatch(args[1:], stdout, stderr)
	case "validate":
		return runValidate(args[1:], stdout, stderr)
	case "compare":
		return runCompare(args[1:], stdout, stderr)
	case "generate":
		return runGenerate(args[1:], os.Stdin, stdout, stderr)
	case "kb":
		return runKB(args[1:], stdout, stderr)
	case "help", "--help", "-h":
		fmt.Fprint(stdout, usage)
		return ExitOK
	default:
		fmt.Fprintf(stderr, "unknown command %q\n\n%s", args[0], usage)
		return ExitUsage
	}
}
