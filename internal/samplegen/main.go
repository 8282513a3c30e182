// Command samplegen writes the bundled sample workbook. It is run by
// `go generate ./assets/sample`; the content lives in package gen.
package main

import (
	"flag"
	"fmt"
	"os"

	"cubeworkbench/internal/samplegen/gen"
)

func main() {
	out := flag.String("out", "cube-sample.xlsx", "path of the workbook to write / 输出工作簿路径")
	flag.Parse()
	b, err := gen.Build()
	if err != nil {
		fmt.Fprintf(os.Stderr, "samplegen: 生成示例工作簿失败 / building the sample workbook failed: %v\n", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, b, 0o644); err != nil {
		fmt.Fprintf(os.Stderr, "samplegen: 写入 %s 失败 / writing %s failed: %v\n", *out, *out, err)
		os.Exit(1)
	}
}
