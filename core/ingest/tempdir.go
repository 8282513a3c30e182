package ingest

import (
	"cubeworkbench/core/proc"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// tempRoot is the folder of ours that holds every temporary file ingest
// makes (a large sheet unpacked to disk, shared strings spilled from
// memory): one subfolder per process, named p<pid>-…, removed when the
// read ends. A killed process leaves its subfolder behind; CleanTemp,
// called when a front end starts, removes it.
var tempRoot = filepath.Join(os.TempDir(), "cubeworkbench-ingest")

// staleAge is how old a subfolder may be before CleanTemp removes it even
// if its process id is alive again (ids are reused).
const staleAge = 7 * 24 * time.Hour

// TempDir is the folder ingest keeps its temporary files in.
func TempDir() string { return tempRoot }

// CleanTemp removes the temporary files of ingest runs whose process is no
// longer running (a kill, a crash, a power cut). Both front ends call it
// once at start; it never touches the files of a process that still runs.
func CleanTemp() error {
	return cleanTempIn(tempRoot)
}

func cleanTempIn(root string) error {
	entries, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("ingest: clean temporary files: %w", err)
	}
	var errs []error
	for _, e := range entries {
		pid, ok := tempOwner(e.Name())
		if !ok {
			continue // not ours
		}
		old := false
		if info, err := e.Info(); err == nil {
			old = time.Since(info.ModTime()) > staleAge
		}
		if pid == os.Getpid() && !old {
			continue
		}
		if !old && proc.Alive(pid) {
			continue
		}
		if err := os.RemoveAll(filepath.Join(root, e.Name())); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// tempOwner reads the process id from a subfolder name p<pid>-….
func tempOwner(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, "p")
	if !ok {
		return 0, false
	}
	num, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(num)
	return pid, err == nil && pid > 0
}

// scratch is one read's temporary folder, made on first use.
type scratch struct {
	root string
	dir  string
}

func (s *scratch) create(pattern string) (*os.File, error) {
	if s.dir == "" {
		if err := os.MkdirAll(s.root, 0o700); err != nil {
			return nil, fmt.Errorf("ingest: temporary folder: %w", err)
		}
		dir, err := os.MkdirTemp(s.root, fmt.Sprintf("p%d-", os.Getpid()))
		if err != nil {
			return nil, fmt.Errorf("ingest: temporary folder: %w", err)
		}
		s.dir = dir
	}
	return os.CreateTemp(s.dir, pattern)
}

func (s *scratch) remove() {
	if s.dir != "" {
		os.RemoveAll(s.dir)
		s.dir = ""
	}
}
