package session

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"cubeworkbench/core/result"
)

// fingerprint hashes the workbook before it is read, so SUMMARY.json and
// the Method sheet say exactly which version was judged even when the file
// is replaced mid-run (the run evaluates what was first read). A folder of
// CSV files is hashed as the SHA-256 of its files' names and hashes in name
// order.
func fingerprint(path string) (*result.FilePrint, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		sum, n, err := hashFile(path)
		if err != nil {
			return nil, err
		}
		return &result.FilePrint{SHA256: sum, Bytes: n, Modified: st.ModTime().UTC()}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	h := sha256.New()
	fp := &result.FilePrint{}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		p := filepath.Join(path, e.Name())
		sum, n, err := hashFile(p)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(h, "%s\x00%s\n", e.Name(), sum)
		fp.Bytes += n
		if info, err := e.Info(); err == nil && info.ModTime().After(fp.Modified) {
			fp.Modified = info.ModTime().UTC()
		}
	}
	fp.SHA256 = hex.EncodeToString(h.Sum(nil))
	return fp, nil
}

func hashFile(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}
