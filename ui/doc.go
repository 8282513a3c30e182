// Package ui is the CuBE Workbench window (Fyne): open a workbook, choose
// judges, evaluate with a progress bar, read and compare the results, export
// the report. All computation lives in core/; this package only draws it.
package ui
