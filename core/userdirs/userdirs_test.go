package userdirs

import (
	"errors"
	"io/fs"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"cubeworkbench/core/text"
)

// fake plays one user's machine: environment, files and directories.
func fake(goos, home string, env map[string]string, files map[string]string, dirs ...string) system {
	return system{
		goos: goos, home: home,
		getenv: func(k string) string { return env[k] },
		readFile: func(p string) ([]byte, error) {
			if s, ok := files[p]; ok {
				return []byte(s), nil
			}
			return nil, fs.ErrNotExist
		},
		isDir: func(p string) bool {
			for _, d := range dirs {
				if d == p {
					return true
				}
			}
			return false
		},
	}
}

func TestDirs(t *testing.T) {
	j := filepath.Join
	winEnv := map[string]string{
		"APPDATA": `C:\Users\li\AppData\Roaming`, "LOCALAPPDATA": `C:\Users\li\AppData\Local`, "USERPROFILE": `C:\Users\li`,
	}
	userDirs := j("/home/li", ".config", "user-dirs.dirs")
	cases := []struct {
		name                  string
		sys                   system
		config, data, docs    string
		configErr, docsErrHas string
		unixHostOnly          bool // "/etc/li" is not absolute to a Windows host's filepath
	}{
		{
			name:   "windows without the shell falls back to USERPROFILE",
			sys:    fake("windows", `C:\Users\li`, winEnv, nil),
			config: j(`C:\Users\li\AppData\Roaming`, "CuBE Workbench"),
			data:   j(`C:\Users\li\AppData\Local`, "CuBE Workbench"),
			docs:   j(`C:\Users\li`, "Documents"),
		},
		{
			name: "windows: the shell's redirected Documents wins",
			sys: func() system {
				s := fake("windows", `C:\Users\li`, winEnv, nil)
				s.documents = func() (string, error) { return `D:\OneDrive\文档`, nil }
				return s
			}(),
			config: j(`C:\Users\li\AppData\Roaming`, "CuBE Workbench"),
			data:   j(`C:\Users\li\AppData\Local`, "CuBE Workbench"),
			docs:   `D:\OneDrive\文档`,
		},
		{
			name: "windows: a failing shell falls back",
			sys: func() system {
				s := fake("windows", `C:\Users\li`, winEnv, nil)
				s.documents = func() (string, error) { return "", errors.New("E_FAIL") }
				return s
			}(),
			config: j(`C:\Users\li\AppData\Roaming`, "CuBE Workbench"),
			data:   j(`C:\Users\li\AppData\Local`, "CuBE Workbench"),
			docs:   j(`C:\Users\li`, "Documents"),
		},
		{
			name:       "windows without APPDATA says so, in both languages",
			sys:        fake("windows", "", map[string]string{}, nil),
			configErr:  "%APPDATA% is not set",
			docsErrHas: "文档",
		},
		{
			name:   "linux defaults, Documents exists",
			sys:    fake("linux", "/home/li", nil, nil, j("/home/li", "Documents")),
			config: j("/home/li", ".config", "cube-workbench"),
			data:   j("/home/li", ".local", "share", "cube-workbench"),
			docs:   j("/home/li", "Documents"),
		},
		{
			name:   "linux without Documents: home",
			sys:    fake("linux", "/home/li", nil, nil),
			config: j("/home/li", ".config", "cube-workbench"),
			data:   j("/home/li", ".local", "share", "cube-workbench"),
			docs:   "/home/li",
		},
		{
			name: "linux: a Chinese UOS/Kylin desktop's user-dirs.dirs",
			sys: fake("linux", "/home/li", nil, map[string]string{userDirs: "# written by xdg-user-dirs-update\n" +
				"XDG_DESKTOP_DIR=\"$HOME/桌面\"\nXDG_DOCUMENTS_DIR=\"$HOME/文档\"\n"}, j("/home/li", "Documents")),
			config: j("/home/li", ".config", "cube-workbench"),
			data:   j("/home/li", ".local", "share", "cube-workbench"),
			docs:   j("/home/li", "文档"),
		},
		{
			name: "linux: XDG variables, an absolute Documents, relative values ignored",
			sys: fake("linux", "/home/li", map[string]string{"XDG_CONFIG_HOME": "/etc/li", "XDG_DATA_HOME": "rel/data"},
				map[string]string{j("/etc/li", "user-dirs.dirs"): `XDG_DOCUMENTS_DIR="/srv/docs/li"`}),
			config:       j("/etc/li", "cube-workbench"),
			data:         j("/home/li", ".local", "share", "cube-workbench"),
			docs:         "/srv/docs/li",
			unixHostOnly: true,
		},
		{
			name:   "linux: a disabled Documents ($HOME) falls back",
			sys:    fake("linux", "/home/li", nil, map[string]string{userDirs: `XDG_DOCUMENTS_DIR="$HOME"`}),
			config: j("/home/li", ".config", "cube-workbench"),
			data:   j("/home/li", ".local", "share", "cube-workbench"),
			docs:   "/home/li",
		},
		{
			name:   "macOS",
			sys:    fake("darwin", "/Users/li", nil, nil, j("/Users/li", "Documents")),
			config: j("/Users/li", "Library", "Application Support", "CuBE Workbench"),
			data:   j("/Users/li", "Library", "Application Support", "CuBE Workbench"),
			docs:   j("/Users/li", "Documents"),
		},
		{
			name:       "no home on linux is an error, not the current directory",
			sys:        fake("linux", "", nil, nil),
			configErr:  "home directory",
			docsErrHas: "主目录",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.unixHostOnly && runtime.GOOS == "windows" {
				t.Skip("a Unix absolute path, tested on Unix hosts")
			}
			config, err := c.sys.configDir()
			if c.configErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.configErr) {
					t.Fatalf("configDir: %q, %v; want error with %q", config, err, c.configErr)
				}
				if _, err := c.sys.dataDir(); err == nil {
					t.Fatal("dataDir: want an error")
				}
				if _, err := c.sys.documentsDir(); err == nil || !strings.Contains(err.Error(), c.docsErrHas) {
					t.Fatalf("documentsDir: %v; want error with %q", err, c.docsErrHas)
				}
				return
			}
			data, err2 := c.sys.dataDir()
			docs, err3 := c.sys.documentsDir()
			if err != nil || err2 != nil || err3 != nil {
				t.Fatal(err, err2, err3)
			}
			if config != c.config || data != c.data || docs != c.docs {
				t.Fatalf("got\n config %q\n data   %q\n docs   %q\nwant\n config %q\n data   %q\n docs   %q",
					config, data, docs, c.config, c.data, c.docs)
			}
		})
	}
}

// The real host answers with absolute paths (on every CI OS).
func TestHost(t *testing.T) {
	for name, f := range map[string]func() (string, error){"ConfigDir": ConfigDir, "DataDir": DataDir, "DocumentsDir": DocumentsDir} {
		p, err := f()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !filepath.IsAbs(p) {
			t.Fatalf("%s = %q, not absolute", name, p)
		}
		t.Logf("%s = %s", name, p)
	}
}

// An error a person reads is a text.Error: the Chinese window shows the
// Chinese sentence and the English one the English, never both glued
// together in one string (issue 21).
func TestErrorsOneLanguageEach(t *testing.T) {
	han := regexp.MustCompile(`\p{Han}`)
	noEnv := fake("windows", "", map[string]string{}, nil)
	noHome := fake("linux", "", nil, nil)
	for name, f := range map[string]func() (string, error){
		"windows config": noEnv.configDir, "windows documents": noEnv.documentsDir,
		"linux config": noHome.configDir, "linux documents": noHome.documentsDir,
		"mac config": fake("darwin", "", nil, nil).configDir,
	} {
		_, err := f()
		var te *text.Error
		if !errors.As(err, &te) {
			t.Errorf("%s: %v is not a text.Error", name, err)
			continue
		}
		if zh, en := te.In(text.ZH), te.In(text.EN); !han.MatchString(zh) || han.MatchString(en) {
			t.Errorf("%s: zh %q, en %q; want each in its own language", name, zh, en)
		}
	}
}
