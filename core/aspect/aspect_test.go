package aspect

import "testing"

func TestRegistry(t *testing.T) {
	want := []string{"申请材料", "办理时限", "收费标准", "办理地点/方式", "申请条件", "办理流程"}
	all := All()
	if len(all) != len(want) {
		t.Fatalf("%d aspects", len(all))
	}
	seen := map[string]bool{}
	for i, a := range all {
		if a.TitleZH != want[i] || a.TitleEN == "" || len(a.Cues) == 0 || seen[a.Name] {
			t.Errorf("entry %d: %+v", i, a)
		}
		seen[a.Name] = true
		for _, n := range []string{a.Name, a.TitleZH, a.TitleEN} {
			if got, ok := Lookup(n); !ok || got.Name != a.Name {
				t.Errorf("Lookup(%q) = %v %v", n, got.Name, ok)
			}
		}
	}
	if _, ok := Lookup("税率"); ok {
		t.Error("unknown aspect found")
	}
}

func TestCovers(t *testing.T) {
	fees, _ := Lookup("fees")
	if !fees.Covers([]string{"事项名称", "收费标准"}, "") {
		t.Error("a 收费标准 column covers fees")
	}
	if !fees.Covers(nil, "本事项不收费。") {
		t.Error("a text saying 不收费 covers fees")
	}
	if fees.Covers([]string{"申请材料"}, "需提交身份证。") {
		t.Error("a guide with materials only covers fees")
	}
}
