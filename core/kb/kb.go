// Package kb opens a workbook whose knowledge base is too large for memory
// (a province's two million service items): the guides stream into the run
// store as they are read, and only the guides the questions name — gold and
// retrieved — are read back for the evaluation.
package kb

import (
	"context"
	"fmt"
	"os"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/ingest"
	"cubeworkbench/core/store"
)

// StreamThreshold is the workbook size above which the guides stream into
// the run store instead of memory: a province's knowledge base.
var StreamThreshold int64 = 64 << 20

// Large reports whether the workbook at path should be streamed.
func Large(path string) bool {
	info, err := os.Stat(path)
	return err == nil && !info.IsDir() && info.Size() > StreamThreshold
}

// LargeUnzipLimit is the unpacked size a streamed knowledge base may have.
const LargeUnzipLimit = 32 << 30

// Open reads path like ingest.Open but keeps the guides in st. It returns
// the workbook with only the referenced guides, the reader's report and the
// number of guides stored.
func Open(ctx context.Context, path string, st *store.Store, opt ingest.Options) (*dataset.Workbook, *ingest.Report, int, error) {
	w, err := st.NewGuideWriter(ctx)
	if err != nil {
		return nil, nil, 0, err
	}
	opt.GuideSink = w.Add
	opt.GuideRef = func(ref string) (string, bool, error) {
		if err := w.Flush(); err != nil {
			return "", false, err
		}
		return st.ResolveGuide(ctx, ref)
	}
	opt.GuideTitled = func(title string) ([]string, error) { return st.GuidesTitled(ctx, title, 10) }
	if opt.UnzipSizeLimit == 0 {
		// Two million guides unpack to several GiB; the reader streams them,
		// so the guard against zip bombs moves up rather than away.
		opt.UnzipSizeLimit = LargeUnzipLimit
	}
	wb, rep, err := ingest.Open(ctx, path, opt)
	if err != nil {
		return nil, nil, 0, err
	}
	if err := w.Close(); err != nil {
		return nil, nil, 0, err
	}
	var refs []string
	for _, it := range wb.Items {
		refs = append(refs, it.DocID)
		refs = append(refs, it.Retrieved...)
	}
	wb.Guides, err = st.GuidesByRef(ctx, refs)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("kb: %w", err)
	}
	return wb, rep, w.Count(), nil
}
