// Command cube is the CuBE Workbench desktop app. Started with a subcommand
// (evaluate, demo, validate, version) it runs headless like cubectl.
package main

import (
	"fmt"
	"os"

	"fyne.io/fyne/v2/app"

	"cubeworkbench/core/session"
	_ "cubeworkbench/core/session/backend" // the engine behind the session
	"cubeworkbench/internal/cli"
	"cubeworkbench/ui"
)

func main() {
	if len(os.Args) > 1 {
		os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
	}
	if err := session.Startup(); err != nil { // leftover temporary files of a killed run
		fmt.Fprintln(os.Stderr, err)
	}
	a := app.NewWithID(ui.AppID)
	ui.New(a).ShowAndRun()
}
