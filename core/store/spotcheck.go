package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// The spot check's tables. Both are created IF NOT EXISTS, so an older
// store gains them empty when it is opened and nothing else changes: the
// schema version stays, and an older tool opening the file ignores them.
const spotCheckSchema = `CREATE TABLE IF NOT EXISTS spot_checks (
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		design     TEXT NOT NULL,
		created_at TEXT NOT NULL)`

const humanRatingSchema = `CREATE TABLE IF NOT EXISTS human_ratings (
		check_id   INTEGER NOT NULL,
		seq        INTEGER NOT NULL,
		rater      TEXT NOT NULL,
		item_id    TEXT NOT NULL,
		set_name   TEXT NOT NULL,
		dimension  TEXT NOT NULL,
		score      REAL NOT NULL,
		created_at TEXT NOT NULL,
		PRIMARY KEY (check_id, seq, rater, dimension))`

// SpotCheck is one stored draw: its design as the caller encoded it.
type SpotCheck struct {
	ID     int64
	Design string // JSON
}

// HumanRating is one person's score of one drawn answer on one dimension,
// as entered.
type HumanRating struct {
	CheckID   int64
	Seq       int // the task in the draw
	Rater     string
	ItemID    string
	Set       string
	Dimension string
	Score     float64
}

// PutSpotCheck stores a new draw and returns its id.
func (s *Store) PutSpotCheck(ctx context.Context, design string) (int64, error) {
	res, err := s.w.ExecContext(ctx, `INSERT INTO spot_checks(design, created_at) VALUES (?, ?)`, design, now())
	if err != nil {
		return 0, fmt.Errorf("store: put spot check: %w", err)
	}
	return res.LastInsertId()
}

// LatestSpotCheck is the newest draw; ok is false when there is none.
func (s *Store) LatestSpotCheck(ctx context.Context) (SpotCheck, bool, error) {
	var c SpotCheck
	err := s.r.QueryRowContext(ctx, `SELECT id, design FROM spot_checks ORDER BY id DESC LIMIT 1`).Scan(&c.ID, &c.Design)
	if errors.Is(err, sql.ErrNoRows) {
		return c, false, nil
	}
	if err != nil {
		return c, false, fmt.Errorf("store: read spot check: %w", err)
	}
	return c, true, nil
}

// PutHumanRating stores a rating at once, replacing the same rater's
// earlier score of that answer and dimension (a corrected entry).
func (s *Store) PutHumanRating(ctx context.Context, r HumanRating) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO human_ratings
		(check_id, seq, rater, item_id, set_name, dimension, score, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(check_id, seq, rater, dimension) DO UPDATE SET score = excluded.score, created_at = excluded.created_at`,
		r.CheckID, r.Seq, r.Rater, r.ItemID, r.Set, r.Dimension, r.Score, now())
	if err != nil {
		return fmt.Errorf("store: put rating %s/%s by %s: %w", r.ItemID, r.Dimension, r.Rater, err)
	}
	return nil
}

// HumanRatings returns the ratings of one draw, by task, rater and dimension.
func (s *Store) HumanRatings(ctx context.Context, checkID int64) ([]HumanRating, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT seq, rater, item_id, set_name, dimension, score FROM human_ratings
		WHERE check_id = ? ORDER BY seq, rater, dimension`, checkID)
	if err != nil {
		return nil, fmt.Errorf("store: read ratings: %w", err)
	}
	defer rows.Close()
	var out []HumanRating
	for rows.Next() {
		r := HumanRating{CheckID: checkID}
		if err := rows.Scan(&r.Seq, &r.Rater, &r.ItemID, &r.Set, &r.Dimension, &r.Score); err != nil {
			return nil, fmt.Errorf("store: read ratings: %w", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: read ratings: %w", err)
	}
	return out, nil
}
