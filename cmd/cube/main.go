// Command cube is the CuBE Workbench desktop app. Started with a subcommand
// (evaluate, demo, validate, version) it runs headless like cubectl.
package main

import (
	"os"

	"fyne.io/fyne/v2/app"

	"cubeworkbench/core/cli"
	"cubeworkbench/internal/version"
	"cubeworkbench/ui"
)

func main() {
	cli.Version = version.String() // stamped from git by scripts/release.sh
	if len(os.Args) > 1 {
		os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
	}
	a := app.NewWithID(ui.AppID)
	ui.New(a).ShowAndRun()
}
