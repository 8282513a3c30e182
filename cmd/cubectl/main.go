// Command cubectl is CuBE Workbench without a window: the same evaluate,
// demo, validate and version subcommands as the desktop app, built with
// CGO_ENABLED=0 for servers and CI.
package main

import (
	"os"

	_ "cubeworkbench/core/session/backend" // the engine behind the session
	"cubeworkbench/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
