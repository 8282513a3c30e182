package gen

// question is one citizen question about one guide. Facets name the guide
// fields the answer must come from (see facetPhrase); Fine keywords are
// verbatim substrings of the gold document so that CoFE matching works.
type question struct {
	Gold   string
	Q      string
	Type   string // 事实类 | 分析类 | 比较类 | 教程类
	Facets []string
	Coarse []string
	Fine   [][]string
}

// Facets.
const (
	fCond    = "cond"
	fTime    = "time"    // 法定 and 承诺 together
	fPromise = "promise" // 承诺 only
	fProc    = "proc"
	fMat     = "mat"
	fFee     = "fee"
)

const (
	qFact    = "事实类"
	qAnalyse = "分析类"
	qCompare = "比较类"
	qHowTo   = "教程类"
)

func kw(groups ...string) [][]string {
	out := make([][]string, len(groups))
	for i, g := range groups {
		out[i] = splitBar(g)
	}
	return out
}

var questions = []question{
	{"YC-0001", "我们公司准备在云川省新建一座抽水蓄能电站，申请项目核准要交哪些材料？", qFact, []string{fMat},
		[]string{"抽水蓄能", "核准", "新建"}, kw("项目申请报告", "用地预审与选址意见书", "社会稳定风险评估报告|节能审查意见", "接入系统意见")},
	{"YC-0002", "抽水蓄能电站核准以后装机容量要从120万千瓦调到140万千瓦，这种变更多长时间能批下来？", qFact, []string{fTime},
		[]string{"抽水蓄能", "变更"}, kw("10个工作日", "20个工作日")},
	{"YC-0003", "抽水蓄能项目核准文件快到期了还没开工，能延期几次、最长延多久？", qAnalyse, []string{fCond},
		[]string{"抽水蓄能", "延期", "核准文件"}, kw("延期一次|不超过1年", "30日前")},
	{"YC-0004", "省管重点项目第一次办建设工程规划许可证，具体流程是怎样的？", qHowTo, []string{fProc},
		[]string{"建设工程规划许可证", "新办"}, kw("受理通知书", "批前公示7日", "设计方案")},
	{"YC-0005", "建设工程规划许可证拿到后想把建筑高度调低，申请变更需要交原来的证吗，多久能办完？", qFact, []string{fMat, fPromise},
		[]string{"建设工程规划许可证", "变更"}, kw("原建设工程规划许可证正本", "7个工作日")},
	{"YC-0006", "建设工程规划许可证延期的法定办结时限和承诺办结时限分别是多少，差几天？", qCompare, []string{fTime},
		[]string{"建设工程规划许可证", "延期"}, kw("3个工作日", "20个工作日")},
	{"YC-0007", "想开个小卖部，办个体工商户营业执照要准备什么材料？", qFact, []string{fMat},
		[]string{"个体工商户", "设立"}, kw("经营者身份证明", "经营场所使用证明")},
	{"YC-0008", "我家的个体户想把经营者从我爸改成我，是不是要先注销再重新办？", qAnalyse, []string{fCond},
		[]string{"个体工商户", "变更", "经营者"}, kw("无需先注销再设立", "30日内")},
	{"YC-0009", "小店不开了，个体户营业执照怎么注销？需要公告吗？", qHowTo, []string{fProc},
		[]string{"个体工商户", "注销"}, kw("简易注销公告|公告期20日", "收缴营业执照")},
	{"YC-0010", "第一次办社保卡要多久能拿到？收不收费？", qFact, []string{fPromise, fFee},
		[]string{"社会保障卡", "申领"}, kw("当场领取|10个工作日", "首次申领免费")},
	{"YC-0011", "社保卡丢了补办和卡坏了换卡，收费一样吗？", qCompare, []string{fFee},
		[]string{"社会保障卡", "补换", "工本费"}, kw("工本费20元", "卡片质量问题换卡")},
	{"YC-0012", "社保卡丢了怎么挂失？电话挂失能管几天？", qHowTo, []string{fProc, fCond},
		[]string{"社会保障卡", "挂失"}, kw("临时挂失", "有效期5日", "正式挂失")},
	{"YC-0013", "开美发店第一次申请公共场所卫生许可证，要多少个工作日？", qFact, []string{fTime},
		[]string{"公共场所卫生许可", "新证"}, kw("10个工作日", "告知承诺制当场发证")},
	{"YC-0014", "我们宾馆的卫生许可证下个月到期，设施都没变，现在申请延续来得及吗？", qAnalyse, []string{fCond},
		[]string{"公共场所卫生许可", "延续"}, kw("届满30日前", "未发生变化")},
	{"YC-0015", "游泳馆搬到了新地址，公共场所卫生许可证能直接办变更吗？", qAnalyse, []string{fCond},
		[]string{"公共场所卫生许可", "变更"}, kw("经营地址", "重新申请新证")},
	{"YC-0016", "开餐馆办食品经营许可证的步骤是什么？会有人上门检查吗？", qHowTo, []string{fProc},
		[]string{"食品经营许可", "新办"}, kw("现场核查", "有效期5年")},
	{"YC-0017", "食品经营许可证要增加经营项目，变更多久能办完？", qFact, []string{fTime},
		[]string{"食品经营许可", "变更"}, kw("3个工作日", "10个工作日")},
	{"YC-0018", "食品经营许可证还有一周就到期了，现在申请延续还来得及吗？", qAnalyse, []string{fCond},
		[]string{"食品经营许可", "延续"}, kw("90个工作日至15个工作日")},
	{"YC-0019", "注册一家有限公司需要准备哪些材料？", qFact, []string{fMat},
		[]string{"有限责任公司", "设立登记"}, kw("公司章程", "住所使用证明", "任职文件")},
	{"YC-0020", "公司要减少注册资本，股东会决议做完了能马上去办变更登记吗？", qAnalyse, []string{fCond},
		[]string{"变更登记", "注册资本"}, kw("公告之日起45日后")},
	{"YC-0021", "公司注销走普通注销和简易注销，公告期各是多少天？", qCompare, []string{fProc},
		[]string{"注销登记", "简易注销"}, kw("公告期45日", "公告期20日")},
	{"YC-0022", "孩子10岁，第一次办身份证要带什么？", qFact, []string{fMat},
		[]string{"居民身份证", "首次"}, kw("居民户口簿", "监护人居民身份证")},
	{"YC-0023", "身份证快到期了，最早能提前多久去换？", qFact, []string{fCond},
		[]string{"居民身份证", "换领"}, kw("有效期满前3个月")},
	{"YC-0024", "身份证丢了补办要多少钱？急用的话能办临时身份证吗？", qFact, []string{fFee},
		[]string{"居民身份证", "补领"}, kw("补领工本费40元", "临时居民身份证工本费10元")},
	{"YC-0025", "宝宝出生多久之内要上户口？需要带什么材料？", qFact, []string{fCond, fMat},
		[]string{"出生登记", "新生儿"}, kw("出生后1个月内", "出生医学证明")},
	{"YC-0026", "我妈今年56岁，户口能投靠到我这里吗？", qAnalyse, []string{fCond},
		[]string{"户口迁移", "投靠"}, kw("女年满55周岁", "合法固定住所")},
	{"YC-0027", "我退休后跟着子女在外省长期居住，办了异地就医备案后多久才能改？", qAnalyse, []string{fProc},
		[]string{"异地就医", "长期居住"}, kw("6个月内|不得变更或取消")},
	{"YC-0028", "出差期间在外地临时看病，备案以后报销比例和在本地一样吗？", qAnalyse, []string{fCond},
		[]string{"异地就医", "临时外出"}, kw("降低10个百分点", "有效期6个月")},
	{"YC-0029", "城乡居民医保每年什么时候交，一年交多少钱？", qFact, []string{fProc, fFee},
		[]string{"城乡居民", "医疗保险"}, kw("9月1日至12月31日", "390元")},
	{"YC-0030", "从外省换工作回到云川，医保关系怎么转过来？", qHowTo, []string{fProc},
		[]string{"医疗保险", "转移接续"}, kw("联系函", "参保凭证")},
	{"YC-0031", "买了二手房，用公积金提取要准备哪些材料？多久到账？", qFact, []string{fMat, fPromise},
		[]string{"住房公积金", "提取", "购买"}, kw("购房发票或契税完税凭证", "当日到账")},
	{"YC-0032", "租房可以提取公积金吗？一年最多能取多少？", qFact, []string{fCond},
		[]string{"住房公积金", "租房"}, kw("1.5万元", "每年可提取一次")},
	{"YC-0033", "我刚辞职，公积金能马上全部取出来吗？", qAnalyse, []string{fCond},
		[]string{"住房公积金", "离职", "销户"}, kw("封存满6个月", "终止劳动关系")},
	{"YC-0034", "夫妻俩都在交公积金，公积金贷款最多能贷多少？", qFact, []string{fCond},
		[]string{"住房公积金", "贷款", "额度"}, kw("80万元")},
	{"YC-0035", "第一次办护照要多少钱，几天能拿到？", qFact, []string{fFee, fPromise},
		[]string{"护照", "首次申领"}, kw("120元", "7个工作日")},
	{"YC-0036", "护照换发和补发的办理时间一样吗？", qCompare, []string{fPromise},
		[]string{"护照", "换发", "补发"}, kw("换发7个工作日", "补发10个工作日")},
	{"YC-0037", "去香港旅游，办港澳通行证再加一次签注，总共多少钱？", qFact, []string{fFee},
		[]string{"港澳通行证", "签注"}, kw("每张60元", "每次15元")},
	{"YC-0038", "驾照还有三个月到期，现在能去换吗？需要体检吗？", qAnalyse, []string{fCond},
		[]string{"驾驶证", "期满换证"}, kw("期满前90日内", "身体条件证明")},
	{"YC-0039", "驾照丢了，补一个要带什么、要多久？", qFact, []string{fMat, fPromise},
		[]string{"驾驶证", "遗失补证"}, kw("一寸白底证件照片", "1个工作日")},
	{"YC-0040", "我拿的是外省驾照，现在在云川上班，必须回老家换证吗？", qAnalyse, []string{fCond},
		[]string{"驾驶证", "转入换证"}, kw("无需回原发证地", "有效期内")},
	{"YC-0041", "买二手房过户，不动产登记费要交多少？", qFact, []string{fFee},
		[]string{"不动产", "转移登记"}, kw("住宅每件80元")},
	{"YC-0042", "房子抵押给银行贷款，抵押登记怎么办理？", qHowTo, []string{fProc},
		[]string{"抵押", "不动产"}, kw("共同申请", "不动产登记证明")},
	{"YC-0043", "房产证上的面积登记错了，申请更正要收费吗？", qFact, []string{fFee},
		[]string{"更正登记", "不动产"}, kw("登记机构错误", "不收费")},
	{"YC-0044", "家里老人腿脚残疾，想办残疾人证，流程是什么？", qHowTo, []string{fProc},
		[]string{"残疾人证", "新办"}, kw("残疾评定", "第三代智能化残疾人证")},
	{"YC-0045", "残疾人证有效期几年？到期前什么时候去换？", qFact, []string{fCond},
		[]string{"残疾人证", "换领"}, kw("有效期10年", "期满前90日内")},
	{"YC-0046", "户口迁到别的县以后，残疾人证号会变吗？", qAnalyse, []string{fProc},
		[]string{"残疾人证", "迁移"}, kw("残疾人证号不变")},
	{"YC-0047", "想生第三个孩子，做生育登记需要什么条件？", qAnalyse, []string{fCond},
		[]string{"生育登记"}, kw("不设前置条件", "第一、二、三个子女")},
	{"YC-0048", "孩子在医院出生，出生医学证明怎么办？", qHowTo, []string{fProc},
		[]string{"出生医学证明", "首次签发"}, kw("出生医学证明自填单")},
	{"YC-0049", "孩子的出生医学证明丢了，补办需要多少天？", qFact, []string{fTime},
		[]string{"出生医学证明", "补发"}, kw("15个工作日", "20个工作日")},
	{"YC-0050", "交了6年失业保险，失业金最多能领多久？", qFact, []string{fCond},
		[]string{"失业保险金"}, kw("最长18个月")},
	{"YC-0051", "我妈快60岁了，城乡居民养老保险只交了12年，能领养老金吗？", qAnalyse, []string{fCond},
		[]string{"城乡居民", "养老保险"}, kw("累计缴费满15年", "补缴")},
	{"YC-0052", "认定高中教师资格，普通话要达到几级？", qFact, []string{fCond},
		[]string{"教师资格", "普通话"}, kw("二级乙等")},
	{"YC-0053", "我只有一辆4吨的小货车拉货，需要办道路运输经营许可吗？", qAnalyse, []string{fCond},
		[]string{"道路货物运输", "经营许可"}, kw("4.5吨", "无需申请")},
	{"YC-0054", "开药店申请药品经营许可证要多长时间？", qFact, []string{fTime},
		[]string{"药品", "经营许可"}, kw("15个工作日", "20个工作日")},
	{"YC-0055", "想成立一个全省性的摄影协会，至少要多少会员、多少活动资金？", qAnalyse, []string{fCond},
		[]string{"社会团体", "成立登记"}, kw("50个以上的个人会员", "10万元以上活动资金")},
	{"YC-0056", "家里困难想申请低保，要怎么申请？", qHowTo, []string{fProc},
		[]string{"最低生活保障"}, kw("入户调查", "公示7日")},
	{"YC-0057", "新装的电梯要在多长时间内办使用登记？", qFact, []string{fCond},
		[]string{"特种设备", "使用登记"}, kw("投入使用后30日内")},
	{"YC-0058", "企业申请排污许可证，承诺多久核发？法定时限是多少？", qCompare, []string{fTime},
		[]string{"排污许可证"}, kw("10个工作日", "20日")},
	{"YC-0059", "农村自家房前屋后的几棵树要砍，需要办林木采伐许可证吗？", qAnalyse, []string{fCond},
		[]string{"林木采伐", "许可证"}, kw("房前屋后|零星林木")},
	{"YC-0060", "男的，52岁失业了，算不算就业困难人员？要怎么认定？", qHowTo, []string{fCond, fProc},
		[]string{"就业困难人员"}, kw("男50周岁以上", "失业登记", "公示5个工作日")},
}
