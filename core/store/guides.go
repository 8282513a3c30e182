package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"cubeworkbench/core/dataset"
)

// GuideWriter streams a knowledge base into the store in batches, so a
// guides sheet of millions of rows never sits in memory. Close flushes.
type GuideWriter struct {
	s     *Store
	ctx   context.Context
	batch []dataset.Guide
	size  int
	n     int
}

// NewGuideWriter replaces the stored knowledge base: earlier guides are
// removed first, so the store always holds exactly one workbook's guides.
func (s *Store) NewGuideWriter(ctx context.Context) (*GuideWriter, error) {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM guides`); err != nil {
		return nil, fmt.Errorf("store: clear guides: %w", err)
	}
	return &GuideWriter{s: s, ctx: ctx, size: 5000}, nil
}

// Add queues one guide; every few thousand guides are written in one
// transaction.
func (w *GuideWriter) Add(g dataset.Guide) error {
	w.batch = append(w.batch, g)
	if len(w.batch) >= w.size {
		return w.flush()
	}
	return nil
}

// Count is the number of guides written or queued.
func (w *GuideWriter) Count() int { return w.n + len(w.batch) }

func (w *GuideWriter) flush() error {
	if len(w.batch) == 0 {
		return nil
	}
	tx, err := w.s.w.BeginTx(w.ctx, nil)
	if err != nil {
		return fmt.Errorf("store: guides: %w", err)
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(w.ctx, `INSERT OR REPLACE INTO guides (id, title, text, fields, row, target_doc) VALUES (?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("store: guides: %w", err)
	}
	defer stmt.Close()
	for _, g := range w.batch {
		fields, err := json.Marshal(g.Fields)
		if err != nil {
			return fmt.Errorf("store: guide %s: %w", g.ID, err)
		}
		if _, err := stmt.ExecContext(w.ctx, g.ID, g.Title, g.Text, string(fields), g.Row, g.TargetDoc); err != nil {
			return fmt.Errorf("store: guide %s: %w", g.ID, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: guides: %w", err)
	}
	w.n += len(w.batch)
	clear(w.batch) // let the guides' strings go
	w.batch = w.batch[:0]
	return nil
}

// Close writes what is queued.
func (w *GuideWriter) Close() error { return w.flush() }

// Flush writes what is queued, so that lookups see every guide added.
func (w *GuideWriter) Flush() error { return w.flush() }

// ResolveGuide maps a reference — a guide's id, else its title (the first
// guide with that title) — to the guide's id.
func (s *Store) ResolveGuide(ctx context.Context, ref string) (string, bool, error) {
	if ref == "" {
		return "", false, nil
	}
	var id string
	err := s.r.QueryRowContext(ctx, `SELECT id FROM guides WHERE id = ?`, ref).Scan(&id)
	if err == sql.ErrNoRows {
		err = s.r.QueryRowContext(ctx, `SELECT id FROM guides WHERE title = ? ORDER BY row LIMIT 1`, ref).Scan(&id)
	}
	switch {
	case err == sql.ErrNoRows:
		return "", false, nil
	case err != nil:
		return "", false, fmt.Errorf("store: resolve guide %q: %w", ref, err)
	}
	return id, true, nil
}

// GuidesTitled lists the ids of the guides titled title, in row order, up to
// limit: more than one means a reference by that title names no single
// guide (two districts' guides of one name).
func (s *Store) GuidesTitled(ctx context.Context, title string, limit int) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id FROM guides WHERE title = ? ORDER BY row LIMIT ?`, title, limit)
	if err != nil {
		return nil, fmt.Errorf("store: guides titled %q: %w", title, err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("store: guides titled %q: %w", title, err)
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// GuidesByRef reads back the guides that references name, by id or title,
// each once, in the order first named. Unknown references are skipped.
func (s *Store) GuidesByRef(ctx context.Context, refs []string) ([]dataset.Guide, error) {
	byID, err := s.r.PrepareContext(ctx, `SELECT id, title, text, fields, row, target_doc FROM guides WHERE id = ?`)
	if err != nil {
		return nil, fmt.Errorf("store: guides: %w", err)
	}
	defer byID.Close()
	byTitle, err := s.r.PrepareContext(ctx, `SELECT id, title, text, fields, row, target_doc FROM guides WHERE title = ? ORDER BY row LIMIT 1`)
	if err != nil {
		return nil, fmt.Errorf("store: guides: %w", err)
	}
	defer byTitle.Close()
	seen := map[string]bool{}
	var out []dataset.Guide
	for _, ref := range refs {
		if ref == "" || seen[ref] {
			continue
		}
		seen[ref] = true
		g, ok, err := scanGuide(byID.QueryRowContext(ctx, ref))
		if err == nil && !ok {
			g, ok, err = scanGuide(byTitle.QueryRowContext(ctx, ref))
		}
		if err != nil {
			return nil, err
		}
		if ok && !seen["\x00"+g.ID] {
			seen["\x00"+g.ID] = true
			out = append(out, g)
		}
	}
	return out, nil
}

func scanGuide(row *sql.Row) (dataset.Guide, bool, error) {
	var g dataset.Guide
	var fields string
	if err := row.Scan(&g.ID, &g.Title, &g.Text, &fields, &g.Row, &g.TargetDoc); err != nil {
		if err == sql.ErrNoRows {
			return g, false, nil
		}
		return g, false, fmt.Errorf("store: guide: %w", err)
	}
	if err := json.Unmarshal([]byte(fields), &g.Fields); err != nil {
		return g, false, fmt.Errorf("store: guide %s: %w", g.ID, err)
	}
	return g, true, nil
}

// CountGuides is the size of the stored knowledge base.
func (s *Store) CountGuides(ctx context.Context) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM guides`).Scan(&n)
	return n, err
}

// GuideNames calls fn with every stored guide's id, title, target_doc and
// row — not its text or fields — in row order: what matching retrieved
// documents to guides needs, at a fraction of the knowledge base's size.
func (s *Store) GuideNames(ctx context.Context, fn func(dataset.Guide) error) error {
	rows, err := s.r.QueryContext(ctx, `SELECT id, title, target_doc, row FROM guides ORDER BY row`)
	if err != nil {
		return fmt.Errorf("store: guide names: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var g dataset.Guide
		if err := rows.Scan(&g.ID, &g.Title, &g.TargetDoc, &g.Row); err != nil {
			return fmt.Errorf("store: guide names: %w", err)
		}
		if err := fn(g); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: guide names: %w", err)
	}
	return nil
}
