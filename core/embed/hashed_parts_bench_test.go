package embed

import (
	"strings"
	"testing"
)

// BenchmarkSparseParts: an answer of the 100,000-question workbook's shape
// and its sentences, embedded with SparseParts against Sparse on each.
func BenchmarkSparseParts(b *testing.B) {
	text := "根据北京市东城区市公安局出入境管理支队发布的办事指南，办理居民身份证申领（12）须居民户口簿原件及复印件；近期免冠彩色照片两张；申请表一份。法定办结时限为17个工作日，承诺3个工作日内办结，工本费20元。（答复编号12345）"
	var parts [][2]int
	at := 0
	for _, s := range []string{"根据北京市东城区市公安局出入境管理支队发布的办事指南，办理居民身份证申领（12）须居民户口簿原件及复印件；", "近期免冠彩色照片两张；", "申请表一份。", "法定办结时限为17个工作日，承诺3个工作日内办结，工本费20元。", "（答复编号12345）"} {
		i := strings.Index(text[at:], s)
		parts = append(parts, [2]int{at + i, at + i + len(s)})
		at += i + len(s)
	}
	h := NewHashed()
	b.Run("parts", func(b *testing.B) {
		var buf HashedBuffers
		for range b.N {
			h.SparseParts(&buf, text, parts)
		}
	})
	b.Run("one-by-one", func(b *testing.B) {
		for range b.N {
			h.Sparse(text)
			for _, p := range parts {
				h.Sparse(text[p[0]:p[1]])
			}
		}
	})
}
