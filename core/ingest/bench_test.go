package ingest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// The benchmarks compare Open on a large guides sheet with a bare excelize
// row loop over the same file (issue 2: rows/s ratio ≥ 0.8, peak memory
// < 300 MB and flat as rows grow). Files are generated once per process and
// removed by TestMain.
//
//	go test -run '^$' -bench . -benchtime 3x ./core/ingest/

var (
	benchDir   string
	benchMu    sync.Mutex
	benchFiles = map[int]string{}
)

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

var guideHeader = []any{"事项编码", "事项名称", "行政区划", "实施主体", "受理条件", "设定依据", "法定办结时限", "承诺办结时限", "办理流程", "申请材料", "收费标准"}

// Phrase pools, mixed with the row number so no two rows are equal.
var (
	benchNames   = []string{"居民身份证申领", "护照签发", "机动车驾驶证换证", "营业执照变更登记", "社会保险关系转移", "住房公积金提取", "出生医学证明办理", "残疾人证核发"}
	benchRegions = []string{"北京市东城区", "上海市浦东新区", "广东省深圳市", "四川省成都市", "浙江省杭州市"}
	benchAgency  = []string{"市公安局出入境管理支队", "区市场监督管理局", "市人力资源和社会保障局", "住房公积金管理中心"}
	benchConds   = []string{"申请人须为本市户籍居民，年满十六周岁，且未持有有效证件；委托他人办理的须提供授权委托书。", "材料齐全、符合法定形式，申请事项属于本机关职权范围，依法应当受理。"}
	benchBasis   = []string{"《中华人民共和国居民身份证法》第八条", "《中华人民共和国行政许可法》第二十九条、第三十二条"}
	benchSteps   = []string{"网上申请或窗口提交材料，工作人员当场审核，材料齐全的予以受理，审核通过后制证并通知领取。", "申请、受理、审查、决定、送达五个环节，全程可在政务服务网查询办理进度。"}
	benchDocs    = []string{"居民户口簿原件及复印件；近期免冠彩色照片两张；申请表一份。", "营业执照正本、副本；法定代表人签署的变更登记申请书；章程修正案。"}
)

func benchRow(i int) []any {
	n := strconv.Itoa(i)
	return []any{
		"110101" + fmt.Sprintf("%011d", i),
		benchNames[i%len(benchNames)] + "（" + n + "）",
		benchRegions[i%len(benchRegions)],
		benchAgency[i%len(benchAgency)],
		benchConds[i%len(benchConds)] + "编号" + n,
		benchBasis[i%len(benchBasis)],
		strconv.Itoa(5+i%25) + "个工作日",
		strconv.Itoa(1+i%10) + "个工作日",
		benchSteps[i%len(benchSteps)] + "流水号" + n,
		benchDocs[i%len(benchDocs)],
		[]string{"不收费", "工本费20元", "免费"}[i%3],
	}
}

// benchFile returns a guides workbook of n rows, written with excelize's
// StreamWriter on first use.
func benchFile(b *testing.B, n int) string {
	benchMu.Lock()
	defer benchMu.Unlock()
	if p, ok := benchFiles[n]; ok {
		return p
	}
	if benchDir == "" {
		d, err := os.MkdirTemp("", "ingest-bench-")
		if err != nil {
			b.Fatal(err)
		}
		benchDir = d
	}
	f := excelize.NewFile()
	defer f.Close()
	f.SetSheetName("Sheet1", "办事指南")
	sw, err := f.NewStreamWriter("办事指南")
	if err != nil {
		b.Fatal(err)
	}
	if err := sw.SetRow("A1", guideHeader); err != nil {
		b.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		ref, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := sw.SetRow(ref, benchRow(i)); err != nil {
			b.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		b.Fatal(err)
	}
	p := filepath.Join(benchDir, fmt.Sprintf("guides-%d.xlsx", n))
	if err := f.SaveAs(p); err != nil {
		b.Fatal(err)
	}
	benchFiles[n] = p
	return p
}

// peakSampler records the largest HeapInuse and Sys seen while running.
type peakSampler struct {
	stop       chan struct{}
	done       sync.WaitGroup
	heap, sys  uint64
	baseHeap   uint64
	sampleEach time.Duration
}

func startPeak() *peakSampler {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	p := &peakSampler{stop: make(chan struct{}), baseHeap: ms.HeapInuse, sampleEach: 20 * time.Millisecond}
	p.done.Add(1)
	go func() {
		defer p.done.Done()
		t := time.NewTicker(p.sampleEach)
		defer t.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			p.heap, p.sys = max(p.heap, ms.HeapInuse), max(p.sys, ms.Sys)
			select {
			case <-p.stop:
				return
			case <-t.C:
			}
		}
	}()
	return p
}

func (p *peakSampler) end() (heapMB, sysMB float64) {
	close(p.stop)
	p.done.Wait()
	return float64(p.heap-min(p.baseHeap, p.heap)) / (1 << 20), float64(p.sys) / (1 << 20)
}

// benchOptions applies INGEST_BENCH_XML_LIMIT (bytes) to both readers, to
// compare excelize's in-memory and temp-file handling of a large sheet.
func benchOptions() Options {
	var o Options
	if v, err := strconv.ParseInt(os.Getenv("INGEST_BENCH_XML_LIMIT"), 10, 64); err == nil {
		o.UnzipXMLSizeLimit = v
	}
	return o
}

func bareRows(b *testing.B, path string) int {
	opt := benchOptions().withDefaults()
	f, err := excelize.OpenFile(path, excelize.Options{UnzipSizeLimit: opt.UnzipSizeLimit, UnzipXMLSizeLimit: opt.UnzipXMLSizeLimit})
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	rows, err := f.Rows("办事指南")
	if err != nil {
		b.Fatal(err)
	}
	n, size := 0, 0
	for rows.Next() {
		cells, err := rows.Columns()
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range cells {
			size += len(c)
		}
		n++
	}
	rows.Close()
	if size == 0 {
		b.Fatal("no cells")
	}
	return n - 1
}

func openGuides(b *testing.B, path string, want int) {
	wb, rep, err := Open(context.Background(), path, benchOptions())
	if err != nil || rep.HasErrors() || len(wb.Guides) != want {
		b.Fatalf("Open: %v, %v, %d guides", err, codes(rep.Problems), len(wb.Guides))
	}
	runtime.KeepAlive(wb)
}

var benchSizes = []int{50_000, 200_000}

func BenchmarkBareExcelizeRows(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			path := benchFile(b, n)
			b.ResetTimer()
			pk := startPeak()
			t0 := time.Now()
			for i := 0; i < b.N; i++ {
				if got := bareRows(b, path); got != n {
					b.Fatalf("rows = %d", got)
				}
			}
			elapsed := time.Since(t0)
			heap, sys := pk.end()
			b.StopTimer()
			b.ReportMetric(float64(n)*float64(b.N)/elapsed.Seconds(), "rows/s")
			b.ReportMetric(heap, "peak-heap-MB")
			b.ReportMetric(sys, "peak-sys-MB")
		})
	}
}

func BenchmarkOpenGuides(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			path := benchFile(b, n)
			b.ResetTimer()
			pk := startPeak()
			t0 := time.Now()
			for i := 0; i < b.N; i++ {
				openGuides(b, path, n)
			}
			elapsed := time.Since(t0)
			heap, sys := pk.end()
			b.StopTimer()
			b.ReportMetric(float64(n)*float64(b.N)/elapsed.Seconds(), "rows/s")
			b.ReportMetric(heap, "peak-heap-MB")
			b.ReportMetric(sys, "peak-sys-MB")
			// What the guides themselves hold once garbage is gone.
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			wb, _, _ := Open(context.Background(), path, benchOptions())
			runtime.GC()
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.HeapInuse-before.HeapInuse)/float64(n), "retained-B/row")
			runtime.KeepAlive(wb)
		})
	}
}

// BenchmarkOpenVsBare alternates the two readers on the 200k-row file in
// each iteration, so a busy shared machine slows both alike, and reports
// Open's speed as a fraction of the bare loop's (target ≥ 0.8).
func BenchmarkOpenVsBare(b *testing.B) {
	const n = 200_000
	path := benchFile(b, n)
	b.ResetTimer()
	var bare, ours time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		bareRows(b, path)
		t1 := time.Now()
		openGuides(b, path, n)
		t2 := time.Now()
		bare += t1.Sub(t0)
		ours += t2.Sub(t1)
	}
	b.ReportMetric(float64(n)*float64(b.N)/bare.Seconds(), "bare-rows/s")
	b.ReportMetric(float64(n)*float64(b.N)/ours.Seconds(), "open-rows/s")
	b.ReportMetric(bare.Seconds()/ours.Seconds(), "ratio")
}
