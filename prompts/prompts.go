package prompts

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"cubeworkbench/core/text"
)

// FS holds the built-in templates.
//
//go:embed cube/*.md cofe/*.md generate/*.md
var FS embed.FS

// Languages the built-in templates exist in.
var Languages = []text.Lang{text.ZH, text.EN}

// File is the file name of a template: NAME.LANG.md. lang is used as
// given, not read with text.LangOf: the file names and the generator's
// fingerprints hash exactly these bytes.
func File(name string, lang text.Lang) string { return name + "." + string(lang) + ".md" }

// Load returns the template NAME in LANG, from dir when dir is not "" and
// holds an edited copy (dir/NAME.LANG.md), otherwise the built-in one.
func Load(dir, name string, lang text.Lang) (string, error) {
	file := File(name, lang)
	if dir != "" {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(file)))
		if err == nil {
			return string(b), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("prompts: read %s: %w", file, err)
		}
	}
	b, err := FS.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("prompts: no template %q in language %q: %w", name, lang, err)
	}
	return string(b), nil
}

// Names lists the built-in template names (e.g. "cube/relevance"), sorted.
func Names() []string {
	seen := map[string]bool{}
	fs.WalkDir(FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			base := strings.TrimSuffix(p, ".md")
			if i := strings.LastIndexByte(base, '.'); i > 0 {
				seen[base[:i]] = true
			}
		}
		return nil
	})
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Export writes every built-in template into dir (keeping files that are
// already there), so a user can edit copies that Load will then prefer.
func Export(dir string) error {
	return fs.WalkDir(FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if _, err := os.Stat(dst); err == nil {
			return nil
		}
		b, err := FS.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fmt.Errorf("prompts: export: %w", err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			return fmt.Errorf("prompts: export: %w", err)
		}
		return nil
	})
}
