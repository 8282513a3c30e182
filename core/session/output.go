package session

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"cubeworkbench/core/text"
)

// Output is one place an evaluation will write to: a file (the report,
// SUMMARY.json, the run store) or a folder (the charts).
type Output struct {
	Path string
	Dir  bool
}

// File and Folder name outputs for CheckOutputs.
func File(path string) Output   { return Output{Path: path} }
func Folder(path string) Output { return Output{Path: path, Dir: true} }

// CheckOutputs makes sure every output can be written before anything is
// paid for: a report in a read-only folder used to fail after every call
// was made, naming a hidden temporary file. Each file's folder is created
// if missing and a scratch file is made and removed in it, which is exactly
// what writing the output will need (a temporary file beside it, renamed
// over it). Empty paths are skipped. The error names the path the user
// gave, in Chinese and English.
func CheckOutputs(outs ...Output) error {
	var errs []error
	for _, o := range outs {
		if o.Path == "" {
			continue
		}
		if err := checkOutput(o); err != nil {
			why := text.Of(err)
			errs = append(errs, text.NewError(text.New(
				fmt.Sprintf("无法写入 %s：%s", o.Path, why.ZH),
				fmt.Sprintf("cannot write %s: %s", o.Path, why.EN)), err))
		}
	}
	return errors.Join(errs...)
}

func checkOutput(o Output) error {
	dir := o.Path
	if !o.Dir {
		if fi, err := os.Stat(o.Path); err == nil && fi.IsDir() {
			return refusal("这是一个文件夹，不是文件", "it is a folder, not a file")
		}
		dir = filepath.Dir(o.Path)
	} else if fi, err := os.Stat(o.Path); err == nil && !fi.IsDir() {
		return refusal("这是一个文件，不是文件夹", "it is a file, not a folder")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".cube-write-check-*")
	if err != nil {
		return err
	}
	name := f.Name()
	err = f.Close()
	if rerr := os.Remove(name); err == nil {
		err = rerr
	}
	return err
}

// writeHook stands between an atomic write and its temporary file; tests
// make it fail part way, as a full disk does.
var writeHook = func(w io.Writer) io.Writer { return w }

// WriteFileAtomic writes data to path through a temporary file in the same
// folder, synced and renamed over path: a full disk or a kill leaves the
// previous file as it was, never half written.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if _, err := writeHook(f).Write(data); err != nil {
		return fail(err)
	}
	if err := f.Chmod(perm); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
