// Package ui is the CuBE Workbench window (Fyne): open a workbook, choose
// judges, evaluate with a progress bar, read and compare the results, export
// the report. All computation lives in core/; this package only draws it.
// The window holds one core/session (the CLI runs the same one); the tabs
// that show it (open, evaluate, results, charts, export) hold a shell of
// the window and are handed the session when it changes.
package ui
