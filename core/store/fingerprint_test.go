package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// A store written before fingerprints existed (schema 1, answers without
// the column) opens, its answers read with an empty fingerprint (the engine
// treats them as stale), and new answers keep theirs.
func TestFingerprintColumnAddedToOldStores(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	old, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
		`INSERT INTO meta VALUES ('schema_version', '1')`,
		`CREATE TABLE answers (item_id TEXT NOT NULL, set_name TEXT NOT NULL, source TEXT NOT NULL, text TEXT NOT NULL,
			retrieved TEXT NOT NULL, contexts TEXT NOT NULL, request_key TEXT NOT NULL, created_at TEXT NOT NULL,
			PRIMARY KEY (item_id, set_name))`,
		`INSERT INTO answers VALUES ('q1', 'rag', 'ragflow', 'old answer', '["G1"]', '[]', '', '2026-01-01T00:00:00Z')`,
	} {
		if _, err := old.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	old.Close()

	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if err := s.PutAnswer(ctx, Answer{ItemID: "q2", Set: "zero", Source: "m", Text: "new", Fingerprint: "fp2"}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Answers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"q1": "", "q2": "fp2"}
	if len(got) != 2 {
		t.Fatalf("answers = %+v", got)
	}
	for _, a := range got {
		if a.Fingerprint != want[a.ItemID] {
			t.Errorf("%s: fingerprint %q, want %q", a.ItemID, a.Fingerprint, want[a.ItemID])
		}
	}
	var v string
	if err := s.r.QueryRow(`SELECT value FROM meta WHERE key = 'schema_version'`).Scan(&v); err != nil || v != "2" {
		t.Errorf("schema version %q (%v), want 2", v, err)
	}
}
