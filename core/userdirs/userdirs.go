// Package userdirs says where CuBE Workbench keeps a user's files on each
// operating system, so that the first start on a Windows PC (or a UOS/Kylin
// desktop) puts them where that system's users and administrators look:
//
//	                Windows                          Linux (XDG)                            macOS
//	ConfigDir  %APPDATA%\CuBE Workbench         $XDG_CONFIG_HOME/cube-workbench (~/.config)  ~/Library/Application Support/CuBE Workbench
//	DataDir    %LOCALAPPDATA%\CuBE Workbench    $XDG_DATA_HOME/cube-workbench (~/.local/share) ~/Library/Application Support/CuBE Workbench
//	Documents  the Documents known folder        XDG_DOCUMENTS_DIR (~/文档 on a Chinese desktop)  ~/Documents
//
// ConfigDir holds small settings (roaming on a Windows domain); DataDir holds
// the run store, which can grow to hundreds of megabytes and so stays local
// (%LOCALAPPDATA% does not roam). DocumentsDir is where exports go by default;
// on Windows it is asked of the shell, because Documents is often redirected
// (OneDrive, D:\, a network share) and %USERPROFILE%\Documents is then wrong.
//
// Nothing here creates a directory; callers os.MkdirAll what they write to.
// No Fyne: the window and cubectl both use it.
package userdirs

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"cubeworkbench/core/text"
)

const (
	appName = "CuBE Workbench" // folder name on Windows and macOS
	xdgName = "cube-workbench" // folder name under the XDG directories
)

// ConfigDir is the folder for the user's settings.
func ConfigDir() (string, error) { return host().configDir() }

// DataDir is the folder for the run store and other large per-user data.
func DataDir() (string, error) { return host().dataDir() }

// DocumentsDir is the user's Documents folder, where exports go by default.
func DocumentsDir() (string, error) { return host().documentsDir() }

// system is what the answers depend on, so tests can play every OS on one.
type system struct {
	goos      string
	home      string
	getenv    func(string) string
	readFile  func(string) ([]byte, error)
	isDir     func(string) bool
	documents func() (string, error) // the Windows shell's answer; nil elsewhere
}

func host() system {
	home, _ := os.UserHomeDir()
	return system{
		goos: runtime.GOOS, home: home, getenv: os.Getenv, readFile: os.ReadFile,
		isDir:     func(p string) bool { fi, err := os.Stat(p); return err == nil && fi.IsDir() },
		documents: knownDocuments,
	}
}

var errNoHome = text.NewError(text.New("找不到用户主目录", "userdirs: cannot find the user's home directory"), nil)

func (s system) configDir() (string, error) {
	switch s.goos {
	case "windows":
		return s.windowsDir("APPDATA")
	case "darwin", "ios":
		return s.macDir()
	}
	return s.xdgDir("XDG_CONFIG_HOME", ".config")
}

func (s system) dataDir() (string, error) {
	switch s.goos {
	case "windows":
		return s.windowsDir("LOCALAPPDATA")
	case "darwin", "ios":
		return s.macDir()
	}
	return s.xdgDir("XDG_DATA_HOME", filepath.Join(".local", "share"))
}

func (s system) windowsDir(variable string) (string, error) {
	v := s.getenv(variable)
	if v == "" {
		return "", text.NewError(text.New("环境变量 %"+variable+"% 未设置，无法确定用户的 AppData 目录",
			"userdirs: %"+variable+"% is not set, so the user's AppData folder is unknown"), nil)
	}
	return filepath.Join(v, appName), nil
}

func (s system) macDir() (string, error) {
	if s.home == "" {
		return "", errNoHome
	}
	return filepath.Join(s.home, "Library", "Application Support", appName), nil
}

// xdgDir follows the XDG base directory spec: a relative value is invalid
// and must be ignored.
func (s system) xdgDir(variable, fallback string) (string, error) {
	if v := s.getenv(variable); filepath.IsAbs(v) {
		return filepath.Join(v, xdgName), nil
	}
	if s.home == "" {
		return "", errNoHome
	}
	return filepath.Join(s.home, fallback, xdgName), nil
}

func (s system) documentsDir() (string, error) {
	if s.goos == "windows" {
		if s.documents != nil {
			if p, err := s.documents(); err == nil && p != "" {
				return p, nil
			}
		}
		if p := s.getenv("USERPROFILE"); p != "" {
			return filepath.Join(p, "Documents"), nil
		}
		return "", text.NewError(text.New("无法确定“文档”文件夹（%USERPROFILE% 未设置）", "userdirs: cannot find the Documents folder (%USERPROFILE% is not set)"), nil)
	}
	if s.home == "" {
		return "", errNoHome
	}
	if s.goos != "darwin" && s.goos != "ios" {
		if p := s.xdgUserDir("XDG_DOCUMENTS_DIR"); p != "" {
			return p, nil
		}
	}
	if p := filepath.Join(s.home, "Documents"); s.isDir(p) {
		return p, nil
	}
	return s.home, nil
}

// xdgUserDir reads one entry of user-dirs.dirs (xdg-user-dirs), which a
// Chinese UOS or Kylin desktop sets to "$HOME/文档". The spec's format: a
// line KEY="$HOME/path" or KEY="/absolute/path"; a value of "$HOME" alone
// means the directory is disabled.
func (s system) xdgUserDir(key string) string {
	config := s.getenv("XDG_CONFIG_HOME")
	if !filepath.IsAbs(config) {
		config = filepath.Join(s.home, ".config")
	}
	b, err := s.readFile(filepath.Join(config, "user-dirs.dirs"))
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		name, value, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(name) != key {
			continue
		}
		value = strings.Trim(strings.TrimSpace(value), `"`)
		switch {
		case value == "$HOME" || value == "$HOME/":
			return ""
		case strings.HasPrefix(value, "$HOME/"):
			value = filepath.Join(s.home, value[len("$HOME/"):])
		case !filepath.IsAbs(value):
			return ""
		}
		return filepath.Clean(value)
	}
	return ""
}
