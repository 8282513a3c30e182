package docparse

import (
	"fmt"
	"strings"

	"github.com/xuri/excelize/v2"
)

// xlsx writes every sheet's rows as tab-separated lines, sheet by sheet,
// each sheet headed by its name so a chunk keeps the table's context.
func xlsx(path string) (string, error) {
	zr, err := openZip(path) // tells an encrypted file from a damaged one
	if err != nil {
		return "", err
	}
	zr.Close()
	f, err := excelize.OpenFile(path)
	if err != nil {
		return "", fmt.Errorf("%w (%v)", ErrCorrupt, err)
	}
	defer f.Close()
	var lines []string
	for _, sheet := range f.GetSheetList() {
		rows, err := f.Rows(sheet)
		if err != nil {
			return "", fmt.Errorf("sheet %q: %w", sheet, err)
		}
		lines = append(lines, sheet)
		for rows.Next() {
			cols, err := rows.Columns()
			if err != nil {
				rows.Close()
				return "", fmt.Errorf("sheet %q: %w", sheet, err)
			}
			line := strings.TrimRight(strings.Join(cols, "\t"), "\t ")
			if strings.TrimSpace(line) != "" {
				lines = append(lines, line)
			}
		}
		if err := rows.Close(); err != nil {
			return "", fmt.Errorf("sheet %q: %w", sheet, err)
		}
	}
	return strings.Join(lines, "\n"), nil
}
