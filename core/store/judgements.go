package store

import (
	"context"
	"cubeworkbench/core/httpsafe"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"cubeworkbench/core/dataset"
)

// JudgementFilter selects judgements; an empty field matches everything.
type JudgementFilter struct {
	ItemID, Set, Judge, Dimension string
}

// PutJudgement stores one judgement under (item, set, judge, dimension,
// repeat), replacing an earlier one. key is the request key of the reply it
// was read from ("" for imported scores). An unscorable judgement is stored
// with a NULL score, so no query can average it in by accident.
func (s *Store) PutJudgement(ctx context.Context, j dataset.Judgement, key string) error {
	var score any // NULL unless the judgement carries a score
	if j.Status == dataset.StatusOK {
		score = j.Score
	}
	status := j.Status
	if status == "" {
		return fmt.Errorf("store: judgement %s/%s/%s/%s/%d: empty status", j.ItemID, j.Set, j.Judge, j.Dimension, j.Repeat)
	}
	_, err := s.w.ExecContext(ctx, `INSERT INTO judgements
		(item_id, set_name, judge, dimension, repeat, score, status, reason, raw, request_key, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(item_id, set_name, judge, dimension, repeat) DO UPDATE SET
			score = excluded.score, status = excluded.status, reason = excluded.reason,
			raw = excluded.raw, request_key = excluded.request_key, created_at = excluded.created_at`,
		j.ItemID, j.Set, j.Judge, j.Dimension, j.Repeat, score, status, httpsafe.Redact(j.Reason), httpsafe.Redact(j.Raw), key, now())
	if err != nil {
		return fmt.Errorf("store: put judgement %s/%s/%s/%s/%d: %w", j.ItemID, j.Set, j.Judge, j.Dimension, j.Repeat, err)
	}
	return nil
}

const judgementCols = `item_id, set_name, judge, dimension, repeat, score, status, reason, raw, request_key`

func scanJudgement(sc interface{ Scan(...any) error }) (dataset.Judgement, string, error) {
	var j dataset.Judgement
	var score sql.NullFloat64
	var key string
	if err := sc.Scan(&j.ItemID, &j.Set, &j.Judge, &j.Dimension, &j.Repeat, &score, &j.Status, &j.Reason, &j.Raw, &key); err != nil {
		return j, "", err
	}
	if score.Valid {
		j.Score = score.Float64
	}
	return j, key, nil
}

// Judgements returns the stored judgements matching f, ordered by item, set,
// judge, dimension and repeat.
func (s *Store) Judgements(ctx context.Context, f JudgementFilter) ([]dataset.Judgement, error) {
	var where []string
	var args []any
	for _, c := range []struct{ col, v string }{
		{"item_id", f.ItemID}, {"set_name", f.Set}, {"judge", f.Judge}, {"dimension", f.Dimension},
	} {
		if c.v != "" {
			where = append(where, c.col+" = ?")
			args = append(args, c.v)
		}
	}
	q := `SELECT ` + judgementCols + ` FROM judgements`
	if len(where) > 0 {
		q += ` WHERE ` + strings.Join(where, " AND ")
	}
	q += ` ORDER BY item_id, set_name, judge, dimension, repeat`
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: judgements: %w", err)
	}
	defer rows.Close()
	var out []dataset.Judgement
	for rows.Next() {
		j, _, err := scanJudgement(rows)
		if err != nil {
			return nil, fmt.Errorf("store: judgements: %w", err)
		}
		out = append(out, j)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: judgements: %w", err)
	}
	return out, nil
}

// Judgement returns one stored judgement and the request key it came from.
func (s *Store) Judgement(ctx context.Context, itemID, set, judge, dimension string, repeat int) (dataset.Judgement, string, bool, error) {
	row := s.r.QueryRowContext(ctx, `SELECT `+judgementCols+` FROM judgements
		WHERE item_id = ? AND set_name = ? AND judge = ? AND dimension = ? AND repeat = ?`,
		itemID, set, judge, dimension, repeat)
	j, key, err := scanJudgement(row)
	if errors.Is(err, sql.ErrNoRows) {
		return dataset.Judgement{}, "", false, nil
	}
	if err != nil {
		return dataset.Judgement{}, "", false, fmt.Errorf("store: judgement %s/%s/%s/%s/%d: %w", itemID, set, judge, dimension, repeat, err)
	}
	return j, key, true, nil
}

// HasJudgement reports whether a judgement (scored or unscorable) is stored.
func (s *Store) HasJudgement(ctx context.Context, itemID, set, judge, dimension string, repeat int) (bool, error) {
	_, _, ok, err := s.Judgement(ctx, itemID, set, judge, dimension, repeat)
	return ok, err
}
