package ui

import (
	"os"
	"strings"
	"testing"
)

// TestGuideNamesTheKeyField: the user guide sends officers to the window's
// key field (and keyring), named as the window names it, not to typing the
// name of an environment variable.
func TestGuideNamesTheKeyField(t *testing.T) {
	b, err := os.ReadFile("../docs/guide.md")
	if err != nil {
		t.Fatal(err)
	}
	guide := string(b)
	useLanguage("zh")
	for _, key := range []string{"key.label", "key.keyring", "key.save", "judges.test"} {
		if !strings.Contains(guide, "“"+tr(key)+"”") {
			t.Errorf("the guide does not name %q as the window does (“%s”)", key, tr(key))
		}
	}
	if strings.Contains(guide, "保存密钥的环境变量名") {
		t.Error("the guide still tells officers to type the name of an environment variable for the key")
	}
}
