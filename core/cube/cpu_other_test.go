//go:build !unix

package cube

import "time"

// processCPU is 0 where the benchmark does not read CPU time.
func processCPU() time.Duration { return 0 }
