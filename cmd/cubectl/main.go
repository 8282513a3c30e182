// Command cubectl is CuBE Workbench without a window: the same evaluate,
// demo, validate and version subcommands as the desktop app, built with
// CGO_ENABLED=0 for servers and CI.
package main

import (
	"os"

	"cubeworkbench/core/cli"
	"cubeworkbench/internal/version"
)

func main() {
	cli.Version = version.String() // stamped from git by scripts/release.sh
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
