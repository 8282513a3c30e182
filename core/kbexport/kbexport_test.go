package kbexport

import (
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/docmatch"
	"cubeworkbench/core/target"
	"cubeworkbench/core/text"
)

func TestWriteNamesMapBack(t *testing.T) {
	guides := []dataset.Guide{
		{ID: "YC-0001", Title: "食品经营许可", Text: "事项名称：食品经营许可\n材料：营业执照"},
		{ID: "社保/转移", Title: "社保转移", Text: "材料：身份证"}, // a slash cannot be in a file name
		{ID: "yc-0001", Title: "同号异写", Text: "x"},    // collides case-insensitively with YC-0001.txt
		{ID: "空白", Title: "只有标题"},
	}
	dir := filepath.Join(t.TempDir(), "kb")
	res, err := Write(guides, dir)
	if err != nil {
		t.Fatal(err)
	}
	wantFiles := []string{"YC-0001.txt", "社保_转移.txt", "yc-0001-2.txt", "空白.txt"}
	wantRenamed := []bool{false, true, true, false}
	for i, e := range res.Entries {
		if e.File != wantFiles[i] || e.Renamed != wantRenamed[i] {
			t.Errorf("entry %d = %+v, want %s renamed %v", i, e, wantFiles[i], wantRenamed[i])
		}
	}
	if res.Renamed != 2 || res.Empty != 1 {
		t.Errorf("renamed %d empty %d", res.Renamed, res.Empty)
	}
	body, _ := os.ReadFile(filepath.Join(dir, "YC-0001.txt"))
	if string(body) != "事项名称：食品经营许可\n材料：营业执照\n" {
		t.Errorf("body = %q", body)
	}
	if body, _ := os.ReadFile(filepath.Join(dir, "空白.txt")); string(body) != "只有标题\n" {
		t.Errorf("empty guide body = %q", body)
	}

	// The manifest's target_doc column, pasted into the guides, maps every
	// exported name back; so do the names alone for ids that are file names.
	f, _ := os.Open(filepath.Join(dir, ManifestName))
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(rows) != len(guides)+1 || rows[0][2] != "target_doc" {
		t.Fatalf("manifest = %v, %v", rows, err)
	}
	withDocs := append([]dataset.Guide(nil), guides...)
	for i := range withDocs {
		withDocs[i].TargetDoc = rows[i+1][2]
	}
	for _, set := range []struct {
		name   string
		guides []dataset.Guide
		exact  []bool // which names resolve without the manifest
	}{
		{"with target_doc from the manifest", withDocs, []bool{true, true, true, true}},
		{"names alone", guides, []bool{true, true, false, true}},
	} {
		m := docmatch.New(set.guides)
		for i, e := range res.Entries {
			// RAGFlow reports the uploaded name and a 32-hex id.
			r := m.Resolve(target.Doc{ID: "3f2a9c1e5b7d4e8f9a0b1c2d3e4f5a6b", Name: e.File})
			if ok := r.GuideID == guides[i].ID; ok != set.exact[i] {
				t.Errorf("%s: %s resolved to %q (%+v)", set.name, e.File, r.GuideID, r)
			}
		}
	}

	_, err = Write(guides, dir)
	if !errors.Is(err, ErrExists) {
		t.Errorf("second export into the same folder: %v", err)
	}
	// Each language on its own, the file named in both (issue 21).
	manifest := filepath.Join(dir, ManifestName)
	if zh, en := text.Of(err).In(text.ZH), text.Of(err).In(text.EN); !strings.Contains(zh, "请导出到空文件夹") || !strings.Contains(zh, manifest) ||
		strings.Contains(zh, "export into") || !strings.Contains(en, manifest) || strings.Contains(en, "请") {
		t.Errorf("second export: zh %q, en %q; want each language on its own, naming %s", zh, en, manifest)
	}
	_, err = Write(nil, t.TempDir())
	if zh, en := text.Of(err).In(text.ZH), text.Of(err).In(text.EN); err == nil || !strings.Contains(zh, "办事指南") || strings.Contains(en, "办事指南") {
		t.Errorf("exporting no guides: %v; want a refusal in each language on its own", err)
	}
}
