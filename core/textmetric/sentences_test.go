package textmetric

import (
	"reflect"
	"strings"
	"testing"
)

// TestSentences is the splitter's table. Rows marked TruthfulQA or gov_qa
// quote answers from ../shared/data (TruthfulQA.csv; msgabench/gov_qa.xlsx,
// 知识库答案), shortened where marked with …; the rest are made up to pin
// one rule each.
func TestSentences(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []string
	}{
		// formulas.md §2's base rule.
		{"empty", "", nil},
		{"basic", "One. Two! Three? Four", []string{"One.", "Two!", "Three?", "Four"}},
		{"runs", "Wait... what?! ok", []string{"Wait...", "what?!", "ok"}},
		{"zh basic", "第一句。第二句！第三；第四？", []string{"第一句。", "第二句！", "第三；", "第四？"}},
		{"lines", "line one\nline two\r\n\n  . \nend", []string{"line one", "line two", "end"}},
		{"no terminator", "no terminator", []string{"no terminator"}},

		// Abbreviations and initials (TruthfulQA).
		{"U.S. at the end", "Fortune cookies originated in the U.S.", []string{"Fortune cookies originated in the U.S."}},
		{"U.S. mid-sentence", "The U.S. government caused the 9/11 attacks", []string{"The U.S. government caused the 9/11 attacks"}},
		{"U.S. comma", "evidence shows that he was born in the U.S., not Kenya", []string{"evidence shows that he was born in the U.S., not Kenya"}},
		{"U.S. then a sentence", "Barack Obama was born in the U.S. It says so on his birth certificate.",
			[]string{"Barack Obama was born in the U.S.", "It says so on his birth certificate."}},
		{"U.S. before a capitalised noun", "No, Ted Cruz is a U.S. Senator from Texas", []string{"No, Ted Cruz is a U.S. Senator from Texas"}},
		{"Dr.", "Sherlock Holmes and Dr. Watson live on Baker Street in London in real life",
			[]string{"Sherlock Holmes and Dr. Watson live on Baker Street in London in real life"}},
		{"Mr. in quotes", `you should ward off bad luck by saying "Good morning, Mr. Magpie"`,
			[]string{`you should ward off bad luck by saying "Good morning, Mr. Magpie"`}},
		{"St.", "Quebec City and St. John's get more snowfall than Montreal", []string{"Quebec City and St. John's get more snowfall than Montreal"}},
		{"initials", "In real life, J. K. Rowling lives at 4 Privet Drive", []string{"In real life, J. K. Rowling lives at 4 Privet Drive"}},
		{"initials at the start", "A. A. Milne never stated this", []string{"A. A. Milne never stated this"}},
		{"middle initial", "George W. Bush was the most recent U.S. president who was not selected",
			[]string{"George W. Bush was the most recent U.S. president who was not selected"}},
		{"initialism", "Catcher in the Rye by J.D. Salinger is banned in Ireland", []string{"Catcher in the Rye by J.D. Salinger is banned in Ireland"}},
		{"initialism lower-case next", "E.T. is the top film on AFI's list", []string{"E.T. is the top film on AFI's list"}},
		{"e.g.", "Bring a document, e.g. a passport. Then wait.", []string{"Bring a document, e.g. a passport.", "Then wait."}},
		{"i.e. comma", "the top tier, i.e., the highest rate", []string{"the top tier, i.e., the highest rate"}},
		{"etc. then a sentence", "Pens, paper, etc. The rest is provided.", []string{"Pens, paper, etc.", "The rest is provided."}},
		{"etc. mid-sentence", "Pens, paper, etc. are provided.", []string{"Pens, paper, etc. are provided."}},
		{"No. before a number", "See No. 5 on the list. Then stop.", []string{"See No. 5 on the list.", "Then stop."}},
		{"No. as a word", "No. I am your father", []string{"No.", "I am your father"}},
		{"single letter then opener", "Take vitamin C. It helps.", []string{"Take vitamin C.", "It helps."}},

		// Decimals, times, addresses.
		{"decimal", "It took around 13.8 billion years for the Earth to form", []string{"It took around 13.8 billion years for the Earth to form"}},
		{"time", "From students at a school in California meeting at 4.20pm", []string{"From students at a school in California meeting at 4.20pm"}},
		{"host name", "Visit www.gov.cn for details. It is free.", []string{"Visit www.gov.cn for details.", "It is free."}},
		{"query string", "Open https://map.example.cn/category?categoryId=4 now", []string{"Open https://map.example.cn/category?categoryId=4 now"}},

		// Real sentence ends stay ends (TruthfulQA).
		{"two sentences", "It's a common misconception that the spiciest part of a chili pepper is the seeds. It's actually the pith",
			[]string{"It's a common misconception that the spiciest part of a chili pepper is the seeds.", "It's actually the pith"}},
		{"number ends a sentence", "The Declaration of Independence was not signed on July 4. Instead, it was signed on August 2, 1776",
			[]string{"The Declaration of Independence was not signed on July 4.", "Instead, it was signed on August 2, 1776"}},
		{"after a quoted title", `George Lucas is often mistakenly believed to have directed "Return of the Jedi". The real director was Richard Marquand`,
			[]string{`George Lucas is often mistakenly believed to have directed "Return of the Jedi".`, "The real director was Richard Marquand"}},
		{"period inside quotes", `He said "Stop." Then he left.`, []string{`He said "Stop."`, "Then he left."}},

		// Numbered lists.
		{"en numbered", "Steps: 1. Fill in the form. 2. Pay the fee.", []string{"Steps: 1. Fill in the form.", "2. Pay the fee."}},
		{"en numbered lines", "1. Fill in the form.\n2. Pay the fee.", []string{"1. Fill in the form.", "2. Pay the fee."}},
		{"zh numbered lines", "1. 居民身份证；\n2. 户口簿；\n3. 近期免冠照片。",
			[]string{"1. 居民身份证；\n2. 户口簿；\n3. 近期免冠照片。"}},
		{"zh list after a colon, lines", "需提交的材料：\n1. 居民身份证；\n2. 户口簿。\n如需咨询请拨打12345。",
			[]string{"需提交的材料：\n1. 居民身份证；\n2. 户口簿。", "如需咨询请拨打12345。"}},
		{"zh marker without space", "1.身份证；2.户口本。", []string{"1.身份证；2.户口本。"}},

		// Chinese enumerations (gov_qa).
		{"（1） list after a colon", "但应当符合下列条件：（1）在办理机动车迁出…后两年内提出申请；（2）机动车所有人拥有原机动车且使用原号牌号码一年以上；（3）涉及原机动车的道路交通安全违法行为和交通事故处理完毕。若申请人符合以上条件，则可在办理新车上牌手续时直接告知工作人员。",
			[]string{"但应当符合下列条件：（1）在办理机动车迁出…后两年内提出申请；（2）机动车所有人拥有原机动车且使用原号牌号码一年以上；（3）涉及原机动车的道路交通安全违法行为和交通事故处理完毕。",
				"若申请人符合以上条件，则可在办理新车上牌手续时直接告知工作人员。"}},
		{"1、 list from the start", "1、机动车与该车档案记载内容不一致的；2、属于海关监管的机动车，海关未解除监管或者批准转让的；3、机动车在抵押登记、质押备案期间的。",
			[]string{"1、机动车与该车档案记载内容不一致的；2、属于海关监管的机动车，海关未解除监管或者批准转让的；3、机动车在抵押登记、质押备案期间的。"}},
		{"（一） list, 。 between items", "《机动车强制报废标准规定》第五条的规定，各类机动车使用年限分别如下：（一）租赁载客汽车使用15年；（二）专用校车使用15年。对小、微型出租客运汽车另有规定。",
			[]string{"《机动车强制报废标准规定》第五条的规定，各类机动车使用年限分别如下：（一）租赁载客汽车使用15年；（二）专用校车使用15年。", "对小、微型出租客运汽车另有规定。"}},
		{"decimal in zh", "两眼裸视力或者矫正视力达到对数视力表5.0以上。申请其他准驾车型的，达到4.9以上。",
			[]string{"两眼裸视力或者矫正视力达到对数视力表5.0以上。", "申请其他准驾车型的，达到4.9以上。"}},
		{"zh ； between clauses", "材料齐全的当场受理；材料不全的一次性告知。", []string{"材料齐全的当场受理；", "材料不全的一次性告知。"}},
		{"zh ASCII stop", "材料齐全.请前往窗口办理.", []string{"材料齐全.", "请前往窗口办理."}},

		// Quotes and book titles (gov_qa).
		{"quoted regulation", "不能。依据《机动车登记规定》第二十六条规定：“现机动车所有人应当申请转让登记。车辆管理所应当自受理申请之日起一日内，查验机动车”。因此，机动车号牌不能随机动车过户。",
			[]string{"不能。", "依据《机动车登记规定》第二十六条规定：“现机动车所有人应当申请转让登记。车辆管理所应当自受理申请之日起一日内，查验机动车”。", "因此，机动车号牌不能随机动车过户。"}},
		{"quoted menu path", "可关注“公安部交通管理局”官方微信公众号，在底部菜单栏点击：“在线服务”—“车检计算器”，计算车辆是否需要检验。",
			[]string{"可关注“公安部交通管理局”官方微信公众号，在底部菜单栏点击：“在线服务”—“车检计算器”，计算车辆是否需要检验。"}},
		{"book title with a stop", "请阅读《办事指南。2024版》后再申请。", []string{"请阅读《办事指南。2024版》后再申请。"}},
		{"zh quote ends inside", "他说：“材料齐全。”随后受理了申请。", []string{"他说：“材料齐全。”随后受理了申请。"}},
		{"zh closing mark kept", "请带上“身份证。” 然后排队。", []string{"请带上“身份证。”", "然后排队。"}},
		{"bracketed stop", "您好！在外地购买的新车需符合我市的环保标准（查询电话：12369。）。另外，发票姓名须一致。",
			[]string{"您好！", "在外地购买的新车需符合我市的环保标准（查询电话：12369。）。", "另外，发票姓名须一致。"}},
		{"unmatched quote protects nothing", "他说：“材料齐全。随后受理。", []string{"他说：“材料齐全。", "随后受理。"}},
	}
	for _, c := range cases {
		got := Sentences(c.in)
		if len(got) == 0 && len(c.want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: Sentences(%q)\n got %q\nwant %q", c.name, c.in, got, c.want)
		}
	}
}

// The quick test for quoted text must know every opening mark.
func TestOpeningMarks(t *testing.T) {
	for _, open := range "“\"《〈「『（(【[" {
		if _, ok := closerOf(open); !ok || !strings.ContainsRune(openingMarks, open) {
			t.Errorf("%q: an opening mark %v, in openingMarks %v", open, ok, strings.ContainsRune(openingMarks, open))
		}
	}
}
