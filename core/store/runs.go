package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"regexp"
	"time"

	"cubeworkbench/core/glossary"
	"cubeworkbench/core/httpsafe"
	"cubeworkbench/core/text"
)

// Run statuses.
const (
	RunRunning     = "running"
	RunDone        = "done"
	RunFailed      = "failed"
	RunInterrupted = "interrupted"
)

// Counts sums up what a run did.
type Counts struct {
	Calls            int      `json:"calls"`      // endpoint calls made
	Attempts         int      `json:"attempts"`   // HTTP requests sent, retries included (llm.Stats.Attempts): what the server saw
	Replies          int      `json:"replies"`    // HTTP responses received, any status (llm.Stats.Replies)
	Throttled        int      `json:"throttled"`  // 429 responses among the replies (llm.Stats.Throttled)
	Cached           int      `json:"cached"`     // requests served from the store
	Failed           int      `json:"failed"`     // calls that ended in an error
	Unscorable       int      `json:"unscorable"` // judgements without a score
	PromptTokens     int      `json:"prompt_tokens"`
	CompletionTokens int      `json:"completion_tokens"`
	Cost             *float64 `json:"cost"` // nil when no price is known
}

// Run is one evaluation recorded in the store.
type Run struct {
	ID          int64
	Profile     string // the profile text; names env vars, never holds secrets
	ToolVersion string
	StartedAt   time.Time
	FinishedAt  *time.Time // nil while running or when the process died
	Status      string
	// Reason says why a run stopped (status failed), in both languages
	// as the window and the CLI say it (engine.Ending); "" otherwise.
	Reason string
	Counts Counts
}

// ErrSecretInProfile refuses a profile that seems to hold a key itself
// instead of naming the environment variable that holds it.
var ErrSecretInProfile = text.NewError(text.New(
	glossary.Term(glossary.Profile, text.ZH)+"中含有密钥，请改用 api_key_env 指定环境变量",
	"store: the "+glossary.Term(glossary.Profile, text.EN)+" holds a secret; name its environment variable with api_key_env instead"), nil)

// secretLine matches TOML `api_key = …` / JSON `"api_key": …` style
// assignments (but not api_key_env).
var secretLine = regexp.MustCompile(`(?im)^\s*"?(api_?key|secret|password|token|access_token)"?\s*[=:]`)

// StartRun records the start of a run, takes the store's run lock (a
// second evaluation on the same store gets *LockedError naming who holds
// it) and returns the run id. The profile copy is stored with URL
// passwords, secret query parameters and every registered key removed
// (httpsafe.SanitizeText): a base_url such as http://user:PASSWORD@host/…
// keeps only its host and path.
func (s *Store) StartRun(ctx context.Context, profile, toolVersion string) (int64, error) {
	if secretLine.MatchString(profile) {
		return 0, ErrSecretInProfile
	}
	profile = httpsafe.SanitizeText(profile)
	counts, _ := json.Marshal(Counts{})
	tx, err := s.w.BeginTx(ctx, nil) // BEGIN IMMEDIATE (_txlock): the lock check and the insert are one step
	if err != nil {
		return 0, fmt.Errorf("store: start run: %w", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `INSERT INTO runs(profile, tool_version, started_at, status, counts)
		VALUES (?, ?, ?, ?, ?)`, profile, toolVersion, now(), RunRunning, string(counts))
	if err != nil {
		return 0, fmt.Errorf("store: start run: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("store: start run: %w", err)
	}
	token, err := s.takeLock(ctx, tx, id)
	if err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("store: start run: %w", err)
	}
	s.lockMu.Lock()
	s.locks[id] = token
	s.lockMu.Unlock()
	return id, nil
}

// FinishRun records how a run ended.
func (s *Store) FinishRun(ctx context.Context, id int64, status string, c Counts) error {
	return s.EndRun(ctx, id, status, "", c)
}

// EndRun records how a run ended and, for a run that stopped, why.
func (s *Store) EndRun(ctx context.Context, id int64, status, reason string, c Counts) error {
	counts, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("store: finish run %d: %w", id, err)
	}
	res, err := s.w.ExecContext(ctx, `UPDATE runs SET finished_at = ?, status = ?, reason = ?, counts = ? WHERE id = ?`,
		now(), status, reason, string(counts), id)
	if err != nil {
		return fmt.Errorf("store: finish run %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("store: finish run %d: no such run", id)
	}
	s.lockMu.Lock()
	token := s.locks[id]
	delete(s.locks, id)
	s.lockMu.Unlock()
	return s.releaseLock(ctx, token)
}

// Runs lists the recorded runs, oldest first.
func (s *Store) Runs(ctx context.Context) ([]Run, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, profile, tool_version, started_at, finished_at, status, reason, counts
		FROM runs ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("store: runs: %w", err)
	}
	defer rows.Close()
	var out []Run
	for rows.Next() {
		var r Run
		var started, counts string
		var finished sql.NullString
		if err := rows.Scan(&r.ID, &r.Profile, &r.ToolVersion, &started, &finished, &r.Status, &r.Reason, &counts); err != nil {
			return nil, fmt.Errorf("store: runs: %w", err)
		}
		if r.StartedAt, err = time.Parse(time.RFC3339Nano, started); err != nil {
			return nil, fmt.Errorf("store: run %d: start time: %w", r.ID, err)
		}
		if finished.Valid {
			t, err := time.Parse(time.RFC3339Nano, finished.String)
			if err != nil {
				return nil, fmt.Errorf("store: run %d: finish time: %w", r.ID, err)
			}
			r.FinishedAt = &t
		}
		if err := json.Unmarshal([]byte(counts), &r.Counts); err != nil {
			return nil, fmt.Errorf("store: run %d: counts: %w", r.ID, err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: runs: %w", err)
	}
	return out, nil
}
