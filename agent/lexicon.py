"""How people in this domain say things, in English and Traditional Chinese: keyword patterns per
profile value. Data only; the extractor modules compile and apply them.

Each table maps a contract id to regex sources (case-insensitive). Order inside a table is the
precedence when several values of one field are mentioned.
"""
from __future__ import annotations

# Workload shapes, most specific first ("coding agent" is an agent; "RAG chatbot" is RAG).
WORKLOAD = {
    "agent": [r"\bagent(?:s|ic)?\b", r"代理人?", r"智能體", r"\bclaude[\s-]?code\b", r"\bcodex\b"],
    "batch": [r"\bbatch(?:es)?\b(?!\s*size)(?![\s-]*(?:ing|ed)\b)", r"\boffline\s+(?:inference|processing|jobs?|batch)",
              r"\bovernight\b", r"\bnightly\s+jobs?\b", r"\bbulk\b", r"離線批次", r"批次", r"批量", r"離線處理",
              r"離線推論",
              # a job over a stated pile of items ("label about 80,000 reviews", "把 3 萬筆工單分類")
              r"\b(?:classif(?:y|ies|ying)|label(?:s|ling|ing)?|tag(?:s|ging)?|scor(?:e|es|ing)|translat(?:e|es|ing)|"
              r"process(?:es|ing)?|extract(?:s|ing)?\s+\w+\s+from)\s+(?:~|about\s+|around\s+|roughly\s+|some\s+)?"
              r"\d[\d,.]*\s*(?:k|K|M|thousand|million)?\s+(?:[\w-]+\s+){0,2}?(?:tickets|documents|docs|items|records|rows|"
              r"emails|reviews|files|pages|messages|transcripts|products|articles)\b",
              r"\d+(?:\.\d+)?\s*[萬千]\s*(?:筆|份|篇|封|則|條)"],
    "rag": [r"\bRAG\b", r"\bretrieval\b", r"\bretrieved\b", r"知識庫", r"檢索", r"\bknowledge\s+base\b",
            r"\bdocument\s+(?:q&a|qa|question)", r"\bsearch\s+over\s+(?:our\s+)?docs"],
    "summarization": [r"\bsummar(?:y|ies|i[sz]e[sd]?|i[sz]ing|i[sz]ation)\b", r"摘要", r"總結", r"\btl;?dr\b"],
    "coding": [r"\bcod(?:e|ing)\s+(?:assistant|completion|review|generation|autocomplete)", r"\bcoding\b",
               r"\bcopilot\b", r"\bautocomplete\b", r"寫程式", r"程式碼", r"\bprogramming\b", r"\bIDE\b"],
    "chat": [r"\bchat(?:bot|bots|s|ting)?\b", r"\b(?:support|help|service|FAQ|Q&A)\s+bots?\b",
             r"機器人", r"聊天", r"客服", r"對話", r"\bcustomer\s+support\b",
             r"\bhelp\s*desk\b", r"\bconversational\b", r"問答"],
}

# Serving modes: (strong, weak). Strong words name the mode; weak ones only hint at it.
SERVING_STRONG = {
    "fleet": [r"(?<!mixed\s)(?<!heterogeneous\s)\bfleet\b", r"跨機房", r"多機房", r"\bmulti[\s-]?(?:datacenter|data[\s-]center|region)s?\b",
              r"\b(?:several|multiple|many|two|three|four|five|\d+)\s+(?:data\s*cent(?:er|re)s|datacenters|regions)\b",
              r"多個資料中心", r"跨資料中心", r"跨區域",
              # scale stated without an exact number: several racks, hundreds of GPUs, several sites
              r"\b(?:several|multiple|many|a\s+few|dozens\s+of|hundreds\s+of|two|three|four|five|[2-9]|[1-9]\d+)\s+"
              r"(?:[A-Za-z][\w-]*\s+){0,3}?racks\b",
              r"\b(?:hundreds|thousands)\s+of\s+(?:[\w-]+\s+){0,2}?(?:GPUs|accelerators|nodes|servers|[A-Za-z]*\d+[A-Za-z]*s)\b",
              r"\bacross\s+(?:(?:several|multiple|many|our|the|\d+|two|three|four|five)\s+)?"
              r"(?:data\s*cent(?:er|re)s|datacenters|DCs|regions|sites)\b",
              r"(?:好幾|幾|多|數|[二兩三四五六七八九十]|\d+)\s*(?:個|座|排)\s*機櫃",
              r"(?:好幾|幾|數|上|成)[百千]\s*(?:張|片|顆|塊|(?:個|台)?\s*(?:GPU|卡|顯卡|節點|伺服器))",
              r"(?:[二兩三四五六七八九十幾]|\d+)\s*個\s*(?:機房|資料中心)"],
    "production": [r"\bproduction\b", r"\bprod\b", r"對外", r"正式上線", r"上線", r"正式環境", r"生產環境",
                   r"\bpublic[\s-]facing\b", r"\bgo(?:ing)?\s+live\b", r"\bSaaS\b", r"\bexternal\s+users\b"],
    "team": [r"內部團隊", r"公司內部", r"\binternal\s+(?:team|teams|tool|users|use|platform)\b", r"部門內"],
    "demo": [r"\bdemos?\b", r"試用", r"\bPoC\b", r"\bproof[\s-]of[\s-]concept\b", r"\bpilot(?:s|ing)?\b", r"\bprototyp(?:e|ing)\b",
             r"概念驗證", r"原型", r"\bMVP\b", r"展示", r"試跑"],
    # "just me and two colleagues" is a small team, not personal use
    "personal": [r"\bjust\s+(?:for\s+)?me\b(?!\s*(?:,|and|&|\+|plus)\s+(?:my\s+|our\s+)?(?:\d+|two|three|four|five|a\s+few|some)\s)",
                 r"\bonly\s+me\b(?!\s*(?:,|and|&|\+|plus)\s+(?:my\s+|our\s+)?(?:\d+|two|three|four|five|a\s+few|some)\s)", r"\bfor\s+myself\b", r"\bpersonal(?:ly)?\b",
                 r"\bmy\s+own\s+use\b", r"\bhobby\b", r"\bhome\s*lab\b", r"自己用", r"給自己", r"自己(?:寫|玩|跑|使用|在家)",
                 r"(?<![\d一二兩三四五六七八九十百千萬幾多些])(?<![\d一二兩三四五六七八九十百千萬幾多些]\s)個人(?!資料|資訊)(?:用|使用|本機)?",
                 r"本機", r"(?<![\d一二兩三四五六七八九十百千萬])只?有?一個人", r"單人(?:使用|用)?", r"一人(?:使用|用)", r"\bsingle[\s-]user\b",
                 r"\bon\s+my\s+(?:laptop|desktop|macbook|mac|pc|workstation)\b",
                 r"\bside\s+project\b", r"\bat\s+home\b", r"\bmy\s+own\s+(?:machine|box|rig|pc)\b"],
}
SERVING_WEAK = {
    "production": [r"\bcustomers?\b", r"客戶", r"\bend[\s-]users\b", r"\bpublic\b", r"\bour\s+(?:app|product)\b"],
    "team": [r"\bour\s+(?:[a-z]+\s+)?team\b(?!\s+(?:says|said|told|requires|insists|mandates|demands))",
             r"\bemployees\b", r"\bstaff\b", r"\bcolleagues\b", r"\bcoworkers\b", r"\binternal(?:ly)?\b",
             r"\bin[\s-]house\b", r"\bour\s+team\b", r"員工", r"同事", r"內部", r"\bintranet\b", r"內網"],
}
SERVING_RANK = ("personal", "demo", "team", "production", "fleet")

# A pilot or today's state, then a rollout: the rollout (the target state) sets users and mode.
TRIAL = [r"\bdemo(?:s|ed|ing)?\b", r"\bpilot(?:s|ed|ing)?\b", r"\btrials?\b", r"\bPoC\b", r"\bproof[\s-]of[\s-]concept\b",
         r"\bprototyp(?:e|ing)\b", r"\bMVP\b", r"\bbeta\b", r"\bcurrently\b", r"\btoday\b", r"\bright\s+now\b",
         r"\bat\s+the\s+moment\b", r"\bso\s+far\b", r"\bfor\s+now\b",
         r"試用", r"試跑", r"試行", r"試辦", r"概念驗證", r"原型", r"展示", r"目前", r"現在", r"現階段", r"一開始"]
ROLLOUT = [r"\bopen(?:s|ed|ing)?\s+(?:it|this|the\s+\w+)?\s*(?:up\s+)?to\b", r"\broll(?:s|ed|ing)?\s+(?:it\s+|this\s+)?out\b",
           r"\brollout\b", r"\bexpand(?:s|ed|ing)?\s+(?:it\s+)?to\b", r"\bscal(?:e|ing)\s+(?:it\s+)?(?:up\s+|out\s+)?to\b",
           r"\blaunch(?:es|ed|ing)?\s+(?:it\s+)?(?:to|for)\b", r"\bgo(?:es|ing)?\s+live\b", r"\bmake\s+it\s+available\s+to\b",
           r"\bnext\s+(?:week|month|quarter|year)\b", r"\blater\s+this\s+(?:month|quarter|year)\b", r"\bin\s+Q[1-4]\b",
           r"開放給", r"正式開放", r"正式上線", r"上線給", r"推廣(?:到|給|至)", r"擴大(?:到|給|至)", r"全面導入", r"導入(?:到|給)",
           r"之後要給", r"下週", r"下周", r"下個?月", r"下一?季", r"明年", r"之後", r"接下來", r"未來",
           r"希望(?:能|先)?(?:做到|達到|支援|撐到?|提升到)", r"目標(?:是|為)?", r"\btarget(?:ing)?\b", r"\b(?:we\s+)?(?:need|want)\s+to\s+(?:reach|hit|get\s+to)\b"]
# Who the rollout is for, when no mode word says it: internal people → team, customers → production.
AUDIENCE = {
    "production": [r"\bcustomers?\b", r"\bclients\b", r"\bthe\s+public\b", r"\bend[\s-]users\b", r"\bpaying\s+users\b",
                   r"客戶", r"外部", r"大眾", r"民眾", r"消費者", r"會員"],
    "team": [r"\bsales(?:people|\s+(?:reps|representatives|team|people|staff))?\b", r"\breps\b", r"\bengineers\b",
             r"\bdevelopers\b", r"\banalysts\b", r"\bcolleagues\b", r"\bcoworkers\b", r"\bemployees\b", r"\bstaff\b",
             r"\bwhole\s+company\b", r"\bcompany[\s-]wide\b", r"\binternal(?:ly)?\b", r"\b(?:[\w-]+\s+)?(?:team|department)s?\b",
             r"(?:業務|研發|客服|行銷)?(?:同仁|同事|人員)", r"業務", r"員工", r"工程師", r"全公司", r"[\u4e00-\u9fff]{0,2}部門", r"內部"],
}

_SETUP_NOUN = (r"(?!\s+(?:[\w-]+\s+)?(?:deployments?|assistants?|chatbots?|agents?|servers?|clusters?|setups?|instances?|LLMs?"
               r"|models?|inference|hosting|solutions?|installs?|installations?|copilots?)\b)")
# What the user optimises for (the article's tenth question). PRIORITY phrases state a priority by
# themselves; PRIORITY_TOPIC words ("latency", "成本") count only next to a STANCE cue.
PRIORITY = {
    "latency": [r"\blow(?:er|est)?[\s-]latency\b(?![\s-]+(?:configs?|setups?|modes?|groups?|presets?|profiles?|recipes?|variants?))",
                # a response time required: "回應一定要在 200ms 以內"; latency wanted lower: "get that latency down"
                r"(?:回應|回覆|回答|延遲|首字|首\s*tokens?|第一個\s*(?:tokens?|字))[^，。,；;]{0,10}?(?:要|需要|必須|得|壓|控制)[^，。,；;]{0,6}?\d+(?:\.\d+)?\s*(?:ms|毫秒|秒)\s*(?:以內|之內|內)",
                r"(?:希望|要求|必須|一定要|需要)[^，。,；;]{0,12}?\d+(?:\.\d+)?\s*(?:ms|毫秒|秒)\s*(?:以內|之內|內)\s*(?:就)?\s*(?:回應|回覆|回答|回來|出結果|完成|出字|出來)",
                r"\b(?:get|bring|push|drive|cut)\s+(?:that|the|this|our|my)?\s*(?:latency|TTFT|time[\s-]to[\s-]first[\s-]token)\s+down\b",
                r"\b(?:reduce|lower|minimi[sz]e|cut)\s+(?:the\s+|our\s+|my\s+)?(?:latency|TTFT)\b", r"\blatency[\s-](?:sensitive|critical|bound|SLOs?|SLAs?|targets?|budget)\b",
                r"低延遲(?!\s*(?:那|的)?\s*(?:組|配置|設定|模式|版))", r"延遲敏感", r"\bresponsive(?:ness)?\b", r"\breal[\s-]?time\b", r"即時", r"快速回應",
                r"回應要快", r"\bsnappy\b", r"\bfast\s+(?:responses|replies|first\s+token)\b",
                # a response time wanted: "壓到一秒以內回應", "respond within a second", "keep short requests fast"
                r"(?:秒|毫秒|ms)\s*(?:以內|之內|內)\s*(?:就)?\s*(?:回應|回覆|回答|出結果|完成)",
                r"\b(?:replies|responses|answers|(?:the\s+)?first\s+tokens?|TTFT)\s+(?:must|should|need\s+to|needs\s+to|has\s+to|have\s+to)\s+(?:come\s+back|arrive|start|appear|return|be\s+back|land)\s+(?:with)?in\s+(?:a|one|\d+(?:\.\d+)?)\s*(?:seconds?|secs?|s|ms|milliseconds?)\b",
                r"\b(?:respond|reply|answer)(?:s|ing)?\s+(?:with)?in\s+(?:a|one|\d+(?:\.\d+)?)\s*(?:seconds?|secs?|s|ms|milliseconds?)\b",
                r"\bkeep\s+(?:\w+\s+){0,3}?(?:fast|snappy|responsive|quick)\b(?!\s+enough)"],
    "throughput": [r"\bhigh(?:er|est)?[\s-]throughput\b", r"\bsqueez(?:e|ing)\s+(?:out\s+)?(?:more|extra|the\s+most|every\s+bit\s+of)\s+(?:throughput|tok(?:en)?s?)",
                   r"\btrad(?:e|ing)\s+(?:off\s+)?(?:some|a\s+bit\s+of|a\s+little)?\s*latency\s+for\b", r"(?:犧牲|換)\s*(?:一點|一些)?\s*延遲\s*(?:換|來換|換取)",
                   r"榨(?:出|乾)?\s*(?:更多|最多)?\s*(?:的)?\s*吞吐", r"\bmaximi[sz]e\s+(?:the\s+)?throughput\b",
                   r"\bthroughput[\s-](?:oriented|first|bound)\b", r"高吞吐", r"吞吐量?優先", r"\btokens?\s+per\s+dollar\b",
                   r"\bmax(?:imum|imi[sz]e)?\s+(?:(?:aggregate|total|overall)\s+)?(?:tokens?\s*/\s*s|tok/s|tokens?\s+per\s+second)\b",
                   # how many it serves at once is what counts: "what matters is how many requests it serves at once"
                   r"\b(?:what\s+matters|all\s+that\s+matters|what\s+counts|(?:i|we)\s+(?:only\s+)?care\s+about)\s+(?:is\s+)?how\s+many\s+(?:requests|users|people|streams|sessions)",
                   r"\b(?:i|we)\s+(?:only\s+|mostly\s+)?care\s+about\s+(?:(?:aggregate|total|overall)\s+)?(?:tokens?\s+per\s+second|tok/s|requests\s+per\s+second)",
                   r"\bmaximi[sz](?:e|es|ing)\s+(?:the\s+)?(?:number\s+of\s+)?(?:requests|users|sessions|streams)\s+per\s+(?:GPU|card|node|server)",
                   r"(?:重點|在乎|在意|看重)(?:的)?(?:是|在)?\s*(?:能)?同時(?:服務|處理|撐|接)(?:得了)?多少"],
    "cost": [r"\bcheap(?:er|est|ly)?\b", r"\bbudget\b", r"便宜", r"省錢", r"預算", r"\bTCO\b",
             r"\bcost[\s-](?:effective|efficient|sensitive|conscious)\b", r"\blow(?:er)?[\s-]cost\b", r"低成本",
             r"\bkeep\s+costs?\s+down\b", r"\b(?:minimi[sz]e|reduce|cut|lower|halve)\s+(?:the\s+|our\s+|my\s+)?(?:\w+\s+)?(?:costs?|bill|spend(?:ing)?)\b",
             r"\b(?:most\s+)?economical\b", r"經濟實惠", r"\bcan'?t\s+justify\b[^.?!]{0,30}\bprices?\b", r"降低成本", r"省成本",
             r"經費(?:不多|有限|很少|很緊|不足)", r"\bmoney\s+is\s+tight\b", r"\btight\s+budget\b",
             r"\bkeep\s+the\s+(?:bill|spend|costs?)\s+(?:low|down)\b", r"\baffordab(?:le|ility)\b", r"\blowest\s+(?:possible\s+)?cost\b",
             r"\b(?:don'?t|do\s+not|without)\s+(?:want\s+to\s+)?(?:pay(?:ing)?|spend(?:ing)?)\s+(?:too|so)\s+much\b", r"\boverpay",
             r"不想花太多", r"不要花太多", r"能省(?:則|就|盡量)省", r"(?:比較|最|更)省(?:錢)?(?!\s*(?:電|事|時間?|空間|顯存|记忆体|記憶體|VRAM|記憶|token))", r"(?<![價值])錢(?:很少|不多|有限|很緊)", r"\bevery\s+(?:dollar|penny|cent)\s+counts\b",
             r"\bkeep(?:s|ing)?\s+(?:the\s+|our\s+|my\s+)?(?:\w+\s+)?(?:bill|spend|costs?)\s+(?:low|down)\b",
             r"\b(?:cutting|reducing|lowering|minimi[sz]ing|saving)\s+(?:the\s+|our\s+|my\s+)?(?:\w+\s+)?(?:costs?|bills?|spend(?:ing)?|money)\b",
             # money saved or not wasted as the goal: "save money", "性價比", "不會多花冤枉錢", "能不能回本", "不會太燒錢"
             r"\bsav(?:e|es|ing)\s+(?:us\s+|some\s+|a\s+lot\s+of\s+)?money\b", r"性價比|\bCP\s*值", r"(?:不(?:會|要|想|用)?\s*)?(?:多)?(?:花)?\s*冤枉錢", r"回本",
             r"(?:不(?:會|要|想|能)?\s*(?:太|那麼|這麼)?\s*)?燒錢", r"\bbudget\b", r"\btoo\s+(?:expensive|pricey|costly)\b", r"太貴",
             r"\b(?:runs?|goes|going)\s+into\s+the\s+(?:hundreds|tens)\s+of\s+thousands\b",
             r"\bself[\s-]?host\w*\b[^.?!]{0,40}\b(?:worth\s+it|cheaper)\b", r"\bcheaper\s+than\s+(?:\w+\s+){0,2}APIs?\b",
             r"\bbeat(?:s|ing)?\s+(?:an?\s+|the\s+)?(?:\w+\s+)?APIs?\s+on\s+(?:cost|price)\b",
             # self-hosting weighed against renting or an API's price: "哪一種比較划算", "instead of paying per-token
             # API prices", "does that beat $0.10 per million tokens", "is renting even worth it", "get that under $0.55"
             r"划算|劃算", r"\binstead\s+of\s+paying\b", r"\bbeats?\s+paying\b",
             r"\bbeat(?:s|ing)?\b[^?!]{0,40}\bper\s+(?:1\s*)?(?:million|M)\s+tokens\b",
             r"\b(?:renting|rental|buying|owning)\b[^.?!]{0,20}\bworth\s+it\b", r"\bworth\s+(?:renting|buying)\b",
             r"\b(?:get|bring|push|drive)\s+(?:that|it|this|the\s+(?:cost|price))\s+(?:down\s+)?(?:under|below)\s+\$"],
    # "keep it private", "fully on-prem" state it; "a private coding agent", "an on-prem assistant" only describe the setup
    "privacy": [r"\bprivacy\b", rf"\bprivate\b{_SETUP_NOUN}", r"隱私", r"地端", rf"\bon[\s-]?prem(?:ise|ises)?\b{_SETUP_NOUN}", r"\bair[\s-]?gapped\b",
                r"資料不(?:能|可以|得)(?:外流|出去|離開|上雲)", r"\bdata\s+(?:can(?:no|')t|must\s+not|never)\s+leave\b",
                r"\bsensitive\s+data\b", r"敏感資料", r"機敏", r"\bcompliance\b", r"合規", r"\bGDPR\b", r"\bHIPAA\b",
                r"\bnothing\s+(?:may|can|must|should|is\s+allowed\s+to)\s+leave\b",
                r"\b(?:must|has\s+to|have\s+to|needs?\s+to)\s+stay\s+(?:on[\s-]?prem\w*|in[\s-]house|internal|inside|local)",
                r"(?:資料|數據|文件)?(?<![能可])不(?:能|可以|得|可)(?:離開|出(?!個|一個)|外流|上雲)", r"不出公司", r"(?:資料|數據)(?:要|必須)?留在"],
    "portability": [r"\bportab(?:le|ility)\b", r"可攜", r"跨平台", r"\bcross[\s-]platform\b", r"\bvendor[\s-]lock(?:[\s-]?in)?\b",
                    r"\block[\s-]?in\b", r"不想被(?:綁|鎖)", r"\bany\s+hardware\b", r"\bmixed\s+hardware\b"],
    "dev-speed": [r"\bdev(?:elopment)?\s+speed\b", r"開發速度", r"\biterat(?:e|ion)\s+(?:fast|quickly|speed)\b",
                  r"快速迭代", r"\btime[\s-]to[\s-]market\b", r"\bship\s+(?:fast|quickly)\b",
                  r"\beasy\s+to\s+(?:set\s*up|deploy|use|run)\b", r"\bsimple\s+to\s+(?:set\s*up|deploy|run)\b",
                  r"快速上手", r"簡單部署", r"好部署", r"\bminimal\s+ops\b"],
}
PRIORITY_TOPIC = {
    "latency": [r"\blatency\b", r"延遲", r"\bTTFT\b", r"\bp9[59]\b", r"回應速度", r"反應速度", r"\btime[\s-]to[\s-]first[\s-]token\b", r"首字",
                r"(?<!dev\s)(?<!development\s)\bspeed\b", r"(?<!開發)速度"],
    "throughput": [r"\bthroughput\b", r"吞吐量?", r"\bQPS\b"],
    "cost": [r"\bcosts?\b", r"成本", r"花費", r"\bspend\b", r"\bmoney\b", r"費用", r"開銷", r"(?<![價值])錢"],
}
STANCE = (r"\bonly\b|\bcounts\b|只(?!有|是|能)(?:看|要|在乎|在意)?|\bking\b|\bpush\b|\bboost\b|\bmaximum\b|\bkeep\s+\w+\s+(?:low|down|high|up)\b|重點|看重|主要看|為重|第一|"
          r"\bmatters?\b|\bcare\b|\bimportant\b|\bpriorit|\bcritical\b|\bkey\b|\bfocus|\boptimi[sz]|\bminimi[sz]|\bmaximi[sz]"
          r"|\bfirst\b(?![\s-]*tokens?)|\bmost\b|\bmain\b|\btop\b|\bconcern|\bsensitive\b|\b(?:low|high)(?:er|est)?\b(?!\s+(?:concurrency|load|traffic|batch|QPS|request\s+rates?))"
          # a bound is a stance only when it bounds a figure ("latency under 200 ms", not "for less than one A100")
          r"|(?:\bunder\b|\bbelow\b|<|\bwithin\b|\bless\s+than\b)(?=\s*[~$]?\s*\d)|\bbound\b|\bsecond(?:ary)?\b|\beverything\b|\babove\s+all\b|\bforemost\b|\ball\s+that\s+matters\b|\bthen\b|\bas\s+well\b"
          r"|重要|優先|在意|重視|在乎|要低|要高|最|敏感|考量|控制|降低|壓低|壓到|降到|砍|減半|省|提高|拉高|省|主要|關鍵|以內|之內|低於|小於|為主|其次|次要"
          r"|越(?:低|快|高|多|少|便宜)越好|才是|太高|\btoo\s+high\b|(?:秒|毫秒|ms)\s*內")

# Interconnect words. NVLink negated ("no NVLink") means the cards talk over PCIe.
INTERCONNECT = {
    "nvlink": [r"\bNV[\s-]?Link\b", r"\bNVSwitch\b", r"\bNVL\d+\b"],
    "infiniband": [r"\bInfini[\s-]?Band\b", r"\bIB\b(?=\s*(?:network|fabric|網路|between|across|連|\+|and\b|with\b))",
                   r"(?:用|走|透過|經由|\bvia|\bover|\busing)\s*IB\b",
                   r"\bRDMA\b(?!\s+over)", r"\bHDR\s+IB\b", r"\bNDR\b"],
    "ethernet": [r"\bRoCE(?:v2)?\b", r"\bethernet\b", r"乙太網路?", r"以太網", r"\b\d{2,3}\s?GbE\b",
                 r"\bTCP/IP\b"],
    "infinity-fabric": [r"\bInfinity\s+Fabric\b", r"\bxGMI\b"],
    "pcie": [r"\bPCI[\s-]?e\b", r"\bPCI\s+Express\b"],
}

# Flags with a yes/no value: (positive patterns, explicit negative patterns).
SHARED_PREFIX = (
    [r"\bsame\s+(?:[\w-]+\s+){0,2}system\s+prompts?\b", r"\bshared\s+(?:system\s+)?(?:prompt|prefix|prefixes|context)\b",
     r"\bcommon\s+(?:prompt\s+)?prefix(?:es)?\b", r"\bprefix(?:es)?\s+(?:repeat|are\s+repeated|are\s+shared|reuse)",
     r"\b(?:chunks|documents|docs|context|examples)\s+(?:often\s+|tend\s+to\s+|will\s+|keep\s+)?(?:repeat|recur|get\s+reused)",
     r"\brepeated\s+(?:prefix|prefixes|context|chunks|documents)\b", r"\bprefix\s+cach(?:e|ing)\b",
     r"重複的?\s*(?:prefix|前綴|system prompt|內容|文件|chunks?)", r"(?:prefix|前綴|system prompt|chunks?)\s*(?:會|都|常常)?\s*重複",
     r"相同的?\s*(?:system prompt|prefix|前綴|提示詞)", r"共用的?\s*(?:system prompt|prefix|前綴|提示詞)", r"(?:系統提示詞?|system\s*prompt|前綴|prefix)[^，。,;；]{0,12}?(?:共用|共享|都一樣|都相同)", r"共同的?\s*(?:prefix|前綴)"],
    [r"\bno\s+(?:shared|common)\s+(?:prefix|prefixes|prompt)", r"\bevery\s+prompt\s+is\s+(?:different|unique)\b",
     r"\bprompts?\s+(?:are\s+)?(?:all\s+)?(?:different|unique)\b", r"沒有(?:共同|共用|重複)的?\s*(?:prefix|前綴)",
     r"(?:prompt|prefix)\s*都不(?:一樣|同)"],
)
STRUCTURED = (
    [r"\bJSON\s+(?:schema|mode|output|outputs|responses?)\b", r"\bstructured\s+(?:output|outputs|generation|decoding|JSON|responses?)\b",
     r"\b(?:function|tool)[\s-]calling\b", r"\btool\s+use\b", r"\bgrammar[\s-](?:constrained|based)\b",
     r"結構化輸出", r"結構化", r"輸出\s*JSON", r"JSON\s*格式", r"\bconstrained\s+decoding\b", r"\bregex[\s-]constrained\b",
     r"\bguided_(?:json|regex|choice|grammar)\b", r"\bjson[_\s-](?:schema|object)\b"],
    [r"\bno\s+(?:structured|JSON)\b", r"不需要\s*(?:結構化|JSON)"],
)
STREAMING = (
    [r"\bstream(?:ing|ed|s)?\b(?!\s*(?:line|processing))", r"串流", r"\bSSE\b", r"逐字(?:輸出|顯示)"],
    [r"\bno\s+streaming\b", r"\bnon[\s-]streaming\b", r"不需要\s*串流", r"不用\s*串流"],
)

# Architecture words for a model given by size ("a 100B MoE").
ARCHITECTURE = {
    "moe": [r"\bMoE\b", r"\bmixture[\s-]of[\s-]experts\b", r"混合專家"],
    "multimodal": [r"\bmulti[\s-]?modal\b", r"\bvision(?:[\s-]language)?\s+model\b", r"\bVLM\b", r"多模態"],
    "hybrid": [r"\bhybrid\s+(?:model|architecture|mamba|ssm)\b", r"\bmamba\b"],
    "dense": [r"\bdense\b", r"稠密"],
}

# Quantization ids: specific formats first, then generic bit widths.
# "Not quantized" in general words: the native 16-bit weights (an explicit format named beside it wins).
GENERIC_FULL = (r"\bfull[\s-]precision\b|\b(?:un|non[\s-]?)quanti[sz]ed\b|\bno\s+quantization\b|\bwithout\s+quanti[sz]\w*"
                r"|\bnot\s+(?:be\s+)?quanti[sz]ed\b|\b(?:don't|do\s+not|won't|will\s+not|not)\s+(?:want\s+to\s+|going\s+to\s+)?quanti[sz]e\b"
                r"|(?<![要用需會想做])(?:不|未|沒有?|無|免)(?:會|打算|想|要|用|需要?|必|做|進行)?\s*(?:做|進行)?\s*量化(?!\s*(?:KV|kv))|全精度|原始精度")
# The weights as the model was released: its native format comes from the catalog ("DeepSeek V3 in its
# native precision" is FP8, "gpt-oss-120b as released" is MXFP4); "16-bit" is its 16-bit dtype.
NATIVE_WEIGHTS = (r"\b(?:native|original|official|stock|released|vanilla)\s+(?:precision|weights|checkpoints?|format|dtype|release)\b"
                  r"|\bas\s+(?:released|shipped|published)\b|\bno\s+quant(?:s|ization)?\b|\bnot?\s+(?:a\s+)?quant\b"
                  r"|原生(?:的)?(?:精度|權重|格式)|原始(?:的)?(?:權重|格式|檢查點)|官方(?:的)?(?:權重|原版|原始權重)|原版(?:權重)?")
SIXTEEN_BIT = r"\b(?:16|sixteen)[\s-]?bits?\b|(?:16|十六)\s*(?:位元|比特)"
# Format tokens are often glued to their neighbours with underscores ("awq_int4", "int4_awq",
# "load_in_8bit", "fp8_e4m3"): an underscore separates them like a space, so the format patterns below use
# an alphanumeric boundary where a word boundary (which treats "_" as a letter) would miss them.
_ALNUM_EDGE = r"(?:(?<![A-Za-z0-9])(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])(?![A-Za-z0-9]))"
# A GGUF k-quant of another size ("Q4_K_S", "Q5_K_L", "Q4_K_XL") is not the _M mix the ids name.
_K_SIZE = r"(?![_-](?:S|L|XS|XL)\b)"


def _format(pattern: str) -> str:
    return pattern.replace(r"\b", _ALNUM_EDGE)


QUANT = [(v, _format(p)) for v, p in [
    ("nvfp4", r"\bNV[\s-]?FP4\b"), ("mxfp4", r"\bMX[\s-]?FP4\b"),
    ("awq", r"(?:\b4[\s-]?bit\s+)?\bAWQ\b(?:\s+4[\s-]?bit\b)?"),
    # GPTQ at 8 bits ("GPTQ-Int8", "INT8-GPTQ") is INT8 weights, not the 4-bit id
    ("gptq-4bit", r"(?:\b4[\s-]?bit\s+)?(?<!INT8[\s_-])(?<!INT8)(?<!8bit[\s_-])(?<!8-bit[\s_-])\bGPTQ\b(?![\s_-]*(?:int[\s-]?8|8[\s-]?bit))(?:[\s_-]*(?:int[\s-]?4|4[\s-]?bit)\b)?"),
    ("q4_k_m", r"\bQ4[_\s-]?K(?:[_\s-]?M)?\b" + _K_SIZE + r"|\bGGUF\s*(?:\(\s*)?Q4\b(?![_\s-]*[01]\b)(?![_-]K)|\bQ4\b(?![_\s-]*[01]\b)(?![_-]K)(?:\s*GGUF)?"),
    ("q5_k_m", r"\bQ5[_\s-]?K(?:[_\s-]?M)?\b" + _K_SIZE + r"|\bQ5\b(?![_\s-]*[01]\b)(?![_-]K)"),
    ("q6_k", r"\bQ6[_\s-]?K\b|\bQ6\b(?![_-]K)"),
    ("q8_0", r"\bQ8(?:[_\s-]0)?\b(?![_-]K)"), ("q4_0", r"\bQ4[_\s-]0\b"),
    ("fp8", r"\bFP[\s-]?8(?![A-Za-z0-9])|\bE4M3\b|\bE5M2\b|\bfloat8\b|\b(?:8|eight)[\s-]?bits?\s+float(?:ing[\s-]point)?\b"), ("int8", r"\bINT[\s-]?8(?![A-Za-z0-9])|\bW8A(?:8|16)\b|\b(?:8|eight)[\s-]?bits?\b|(?:8|八)\s*(?:位元|比特)|(?:8|八)\s*位\s*(?:量化|整數|精度)"),
    ("int4", r"\bINT[\s-]?4(?![A-Za-z0-9])|\bW4A(?:16|8)\b|\b(?:4|four)[\s-]?bits?\b(?!\s+float)|\bNF4\b|(?:4|四)\s*(?:位元|比特)|(?:4|四)\s*位\s*(?:量化|整數|精度)"),
    ("bf16", r"\bBF[\s-]?16(?![A-Za-z0-9])|\bbfloat16\b|" + GENERIC_FULL),
    ("f16", r"\bFP[\s-]?16(?![A-Za-z0-9])|\bF16\b|\bfloat16\b|\bhalf[\s-]precision\b|\bdtype\s*[=:]?\s*half\b|半精度|\bhalf\s*精度"),
]]
# ExLlama quants by bits per weight: "EXL2 4.65bpw", "4.0bpw exl2", and repository names that put the
# head-layer bits between them ("4.0bpw-h6-exl2").
EXL_NAME = r"\b(?P<fmt>EXL[23]|ExLlama[\s-]?V[23])\b"
EXL = _format(EXL_NAME + r"[\s_-]*(?:(?:quant(?:ized|ised)?|format|量化|格式|版本?|的)\s*)*(?:(?:@|at)\s*|\(\s*)?(?P<bpw>\d+(?:\.\d+)?)\s*(?:bpw|bits?|b)\b"
              r"|\b(?P<bpw2>\d+(?:\.\d+)?)\s*bpw(?:[\s_-]*h\d+)?[\s_-]*(?:的\s*|\(\s*)?(?P<fmt2>EXL[23]|ExLlama[\s-]?V[23])\b")
# "4.0 bpw" alone is ExLlama's unit; its format is the ExLlama named elsewhere in the message ("... on exllamav2").
EXL_BARE_BPW = _format(r"\b(?P<bpw>\d+(?:\.\d+)?)\s*bpw\b")

# Intent cues (see agent/extract_intent.py for precedence).
BENCHMARK_CUES = [
    r"\bhow\s+(?:do|should|can|would)\s+(?:i|we)\s+(?:properly\s+)?(?:benchmark|load[\s-]?test|stress[\s-]?test|measure|test|compare)\b",
    r"\bhow\s+to\s+(?:benchmark|load[\s-]?test|test|measure)\b", r"\bbenchmark(?:ing)?\s+(?:plan|spec|methodology|setup|checklist)\b",
    r"\bwhat\s+(?:metrics|should\s+(?:i|we)\s+measure)\b", r"\bload[\s-]?test(?:ing)?\b",
    r"(?:怎麼|如何|要怎麼|該怎麼)\s*(?:測|壓測|量測|跑\s*benchmark|做\s*benchmark|benchmark|評測|比較)", r"壓測", r"測試計畫",
    r"benchmark\s*(?:要|該)?(?:看|測)什麼", r"要測(?:哪些|什麼)指標",
]
SIZE_CUES = [
    r"\bwhat\s+(?:hardware|gpus?|accelerators?|machines?|servers?)\s+(?:should|do|would|to)\s+(?:we|i)?\s*(?:buy|get|need|purchase|rent)\b",
    r"\bwhat\s+should\s+(?:we|i)\s+(?:buy|purchase|rent)\b",
    r"\bhow\s+many\s+(?:[\w.-]+\s+){0,3}?(?:gpus?|cards|devices|accelerators|nodes|servers|[a-z]*\d+[a-z]*s?)\s+(?:do|would|will|should)\s+(?:we|i)\s+need\b",
    r"\bhow\s+many\s+(?:[\w.-]+\s+){0,3}?(?:gpus|cards|devices|accelerators|nodes|servers)\s+(?:to\s+(?:serve|run|host)|for)\b",
    r"\bsiz(?:e|ing)\s+(?:the|our|a)\s+(?:cluster|hardware|deployment|fleet)\b", r"\bhardware\s+(?:sizing|to\s+buy)\b",
    r"\bwhich\s+(?:gpus?|hardware)\s+(?:to|should\s+(?:we|i))\s+(?:buy|get|purchase)\b",
    r"(?:要|該|應該)買(?:什麼|哪種|哪個|哪款|幾張|多少)", r"需要(?:幾|多少)\s*(?:張|台|顆|片)", r"硬體(?:規劃|採購|選購)",
]
"""Sizing the other way round: which hardware (and how much) to get for a model and a load."""
ESTIMATE_CUES = [
    r"\b(?:will|would|does|do|can)\s+(?:it|this|that|they|the\s+model|[\w.-]+(?:\s+[\w.-]+){0,3})\s+(?:even\s+)?fit\b",
    r"\bfits?\s+(?:in|on|into)\b", r"\bhow\s+(?:fast|quick(?:ly)?|slow)\b", r"\bhow\s+many\s+(?:tokens|tok|requests|users|concurrent)",
    r"\bhow\s+much\s+(?:vram|memory|ram|throughput|latency)\b", r"\btokens?\s*(?:/|per)\s*s(?:ec(?:ond)?)?\s+(?:would|will|can|should)\b",
    r"\b(?:can|could)\s+(?:i|we)\s+(?:even\s+)?run\b", r"\benough\s+(?:vram|memory|ram)\b", r"\bwhat\s+(?:speed|throughput|ttft)\b",
    r"\bmax(?:imum)?\s+concurrency\b", r"\bhow\s+long\s+(?:will|would|does)\b", r"\bestimate\b",
    r"\bfits?\s+within\b", r"\bwhat(?:'s|\s+is|\s+are)\s+(?:the\s+)?(?:[\w.-]+(?:'s)?\s+){0,3}(?:performance|throughput|speed|latency|tokens?\s+per\s+second)\b",
    r"(?:能|可以)?撐多少", r"(?:大概|大約)?(?:能)?支援多少", r"(?:並發|併發)(?:數|人數)?(?:大概|大約)?是?多少", r"多少(?:個)?(?:並發|併發)",
    r"(?:可以|能|能不能)?跑[^，。？?,]{0,30}(?:可以嗎|行嗎|可行嗎)", r"(?:可以|能)跑[^，。？?,]{0,30}嗎",
    r"塞得(?:下|進)", r"放得下", r"裝得下", r"跑得(?:動|起來|了)", r"跑不跑得", r"能不能跑", r"可以跑嗎", r"能跑嗎", r"多快",
    r"速度(?:大概|大約|會)?(?:多少|如何)", r"需要多少\s*(?:VRAM|記憶體|顯存|GPU|卡)", r"夠不夠", r"最多(?:能|可以)?(?:撐|支援)?多少",
    r"估(?:算|計)", r"(?:TTFT|TPOT|延遲|速度|吞吐量?|tok/s)[^，。？?]{0,8}(?:會是?|大概|大約)?多少", r"每秒[^，。？?]{0,6}(?:幾|多少)",
]
RECOMMEND_CUES = [
    r"\bwhich\s+(?:inference\s+)?(?:engine|server|framework|runtime|stack|one)\b", r"\bwhat\s+(?:inference\s+)?(?:engine|server|framework|runtime|stack)\b",
    r"\bshould\s+(?:i|we)\s+(?:use|pick|choose|go\s+with|run)\b", r"\brecommend", r"\bbest\s+(?:inference\s+)?(?:engine|option|choice|setup)\b",
    r"\bwhat\s+(?:do|would)\s+you\s+(?:suggest|use)\b", r"推薦", r"建議", r"選哪(?:個|一個)", r"用哪(?:個|一個|套)", r"怎麼選", r"選什麼",
    r"哪(?:個|一個|套)引擎", r"什麼引擎", r"該用", r"要用什麼", r"\bvs\.?\b",
]
EXPLAIN_CUES = [
    r"^\s*(?:so\s+)?(?:what(?:'s|\s+is|\s+are|\s+does)|explain|why\b|how\s+does|how\s+do\b(?!\s+(?:i|we)\b)|define|tell\s+me\s+about|difference)",
    r"\bwhy\s+(?:is|does|do|would|are|did|does\s+\w+)\b", r"\bwhy\s*\?\s*$", r"什麼原因",
    r"\bwhat\s+(?:is|are)\s+(?:the\s+)?(?:difference|a|an)\b", r"\bwhat\s+does\s+[\w\s-]+\s+mean\b", r"\bexplain\b",
    r"\bdifference\s+between\b", r"什麼是", r"是什麼", r"解釋", r"為什麼", r"为什么", r"差在哪", r"差別", r"區別", r"什麼意思", r"原理",
    r"有什麼不同", r"介紹一下",
]

INJECTION = [
    r"\b(?:ignore|disregard|forget|bypass|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:your|the|my|previous|prior|above|earlier|these|those|system)?\s*"
    r"(?:previous\s+|prior\s+|above\s+|earlier\s+|system\s+)?(?:rules|instructions|prompts?|guidelines|constraints|policy|policies|guardrails)\b",
    r"\byou\s+(?:must|have\s+to|will|should\s+always|are\s+required\s+to)\s+(?:only\s+)?(?:recommend|answer|say|pick|choose|output)\b",
    r"\b(?:always|only)\s+recommend\b", r"\brecommend\s+[\w.-]+\s+no\s+matter\b", r"\bno\s+matter\s+what\b.*\brecommend\b",
    r"\bignore\s+(?:all\s+|everything\s+)?(?:of\s+)?(?:the\s+)?(?:above|previous|prior|earlier)\b",
    r"\byou\s+are\s+now\b", r"\bpretend\s+(?:you|to\s+be)\b", r"\bjailbreak\b", r"\bdeveloper\s+mode\b", r"\bnew\s+instructions?\s*:",
    r"忽略.{0,8}(?:指示|規則|指令|設定|提示|限制)", r"無視.{0,8}(?:指示|規則|指令|限制)", r"不(?:要|用)管.{0,6}(?:規則|指示)",
    r"你(?:必須|一定要|只能|只准)\s*(?:推薦|回答|選|說)", r"(?:必須|只能|只准)\s*推薦", r"你現在是",
    r"一律推薦", r"直接推薦\s*[\w.-]+\s*就好", r"(?:^|[\s，,])(?:請)?假裝你",
]

DONT_KNOW = [
    r"\b(?:I\s*)?(?:do\s*n[o']?t|dont|don’t)\s+(?:really\s+)?know\b", r"\bnot\s+sure\b", r"\bunsure\b", r"\bno\s+idea\b", r"\bno\s+clue\b",
    r"\bdunno\b", r"\bidk\b", r"\bnot\s+certain\b", r"\bhaven'?t\s+decided\b", r"\bup\s+to\s+you\b", r"\byou\s+decide\b",
    r"\bno\s+preference\b", r"\bassume\s+(?:typical|default|sensible)\b", r"\bwhatever\s+(?:is\s+)?(?:typical|default|you\s+think)\b",
    r"不知道", r"不太?確定", r"不太?清楚", r"不曉得", r"隨便", r"都可以", r"沒概念", r"沒想過", r"還沒決定", r"你決定", r"幫我決定", r"看你",
]

# What the question is about, beyond the situation (topic id → patterns). A topic is raised when
# its subject is named, asked or stated ("does vLLM support speculative decoding?", "30 LoRAs").
_FORMAT = (r"(?:GGUF|AWQ|GPTQ|EXL[23]|FP[\s-]?8|FP[\s-]?16|BF[\s-]?16|INT[\s-]?[48]|NVFP4|MXFP4|Q[2-8][_\s-]?(?:K(?:[_\s-]?[SML])?|0)\b|Q[2-8]\b"
           r"|bitsandbytes|bnb|HQQ|\d{1,2}[\s-]?bits?)")
# Formats offered as alternatives ("GGUF, AWQ or EXL2?", "AWQ vs GPTQ", "GGUF 跟 AWQ 要選哪個") are undecided.
# A list needs a word of choice ("or", "vs", 還是); commas alone only separate clauses.
# A comparison ("is AWQ better than GPTQ", "FP8 比 INT8 快嗎") and a list closed by a question of choice
# ("AWQ、GPTQ、FP8 該選哪個") offer them too.
FORMAT_ALTERNATIVES = (rf"\b(?:compar\w*|between|choose\s+between|pick\s+between)\s+{_FORMAT}\s*(?:and|with|to|&)\s*{_FORMAT}"
                       rf"|{_FORMAT}\s+(?:compares?|stacks?\s+up)\s+(?:with|to|against)\s+{_FORMAT}"
                       rf"|{_FORMAT}(?:\s*[,、]\s*{_FORMAT})*\s*(?:好|比較好|比較快|快)?\s*(?:\bor\s+(?:go(?:\s+(?:with|to))?|use|switch\s+to|move\s+to|pick)\b|/|\bor\b|\bvs\.?|\bversus\b|還是|或是?|或者|跟|和|與|比"
                       rf"|\b(?:better|faster|slower|worse|cheaper|more\s+accurate)\s+than\b|\bcompared\s+(?:to|with)\b|\bover\b)\s*{_FORMAT}"
                       rf"|{_FORMAT}(?:\s*[,、]\s*{_FORMAT})+(?=[^。.!?？]{{0,8}}(?:選|哪|which|what))")
TOPICS = {
    "speculative-decoding": [r"\bspec(?:ulative)?[\s-]*decod", r"\bspeculat(?:ion|ive|e)\b", r"\bdraft[\s-]+model", r"\bEAGLE(?:-?\d)?\b",
                             r"\bMedusa\b", r"\bMTP\b", r"\blookahead\s+decoding\b", r"\bsuffix\s+decoding\b", r"\bn-?gram\s+spec",
                             r"投機解碼", r"推測(?:式)?解碼", r"草稿模型"],
    "prefix-caching": [r"\bprefix[\s-]*cach", r"\bprompt[\s-]*cach", r"\bprefix\s+(?:reuse|sharing)\b", r"\bRadixAttention\b",
                       r"\bradix\s+(?:cache|tree)\b", r"\bKV[\s-]*cache\s+reuse\b", r"前綴快取", r"前綴緩存", r"前綴重用", r"prefix\s*cache"],
    "multi-lora": [r"\bLoRAs?\b", r"\b(?:LoRA\s+)?adapters?\b(?!\s+card)", r"\bS-LoRA\b", r"\bLoRAX\b", r"\bmulti[\s-]?LoRA\b",
                   r"多\s*LoRA"],
    "structured-output": [r"\bstructured[\s-]+(?:outputs?|generation|decoding|JSON|responses?)\b", r"\bJSON\s*(?:schema|mode|outputs?|format)\b",
                          r"\bguided\s*(?:/\s*structured\s+)?(?:decoding|generation|json|choice|regex)\b", r"\bgrammar[\s-](?:constrained|based|forced)\b",
                          r"\bconstrained\s+(?:decoding|generation|output)\b", r"\bxgrammar\b", r"\boutlines\b", r"\blm-format-enforcer\b",
                          r"結構化輸出", r"結構化", r"JSON\s*格式", r"輸出\s*JSON", r"符合\s*JSON",
                          # the API's own parameter names: guided_json, response_format, json_schema, json_object
                          r"\bguided_(?:json|regex|choice|grammar|decoding)\b", r"\bresponse[_\s-]format\b", r"\bjson[_\s-](?:schema|object)\b"],
    # "every layer offloaded to the GPUs" (llama.cpp's -ngl) keeps the model on the GPU: not the topic
    "offload": [r"\boffload(?!\w*\s+(?:\w+\s+){0,2}?to\s+(?:the\s+|both\s+|all\s+|my\s+)?(?:GPUs?|VRAM|cards?|顯卡|GPU))",
                # weights split between VRAM and system RAM: "spills into system RAM", "47%/53% CPU/GPU",
                # "23 GB of VRAM plus 18 GB of system RAM", "only part of the layers stay on the GPU", "1T 記憶體加 14GB 顯存"
                r"\bspill(?:s|ed|ing)?\s+(?:over\s+)?into\b", r"\bCPU\s*/\s*GPU\b|\bGPU\s*/\s*CPU\b",
                r"\bVRAM\b[^.?!]{0,20}\b(?:plus|and|\+)\b[^.?!]{0,20}\b(?:system|host|CPU)\s+(?:RAM|memory)\b",
                r"\b(?:only\s+)?(?:part|some|most|half)\s+of\s+the\s+(?:layers|weights|model)\b[^.?!]{0,20}\b(?:on|in)\s+(?:the\s+)?(?:GPU|VRAM)",
                r"(?:記憶體|內存|内存|RAM)\s*(?:加|\+|和|與|跟)\s*\d+(?:\.\d+)?\s*(?:G|GB)?\s*(?:的)?\s*(?:顯存|顯示記憶體|VRAM)", r"\b(?:n-)?cpu[\s-]moe\b", r"\bexperts?\b[^.?!。？]{0,30}\b(?:CPU|system\s+RAM|host\s+RAM|RAM|system\s+memory)\b",
                r"\bspill(?:s|ing)?\s+(?:over\s+)?to\b", r"\bthe\s+rest\s+(?:of\s+(?:it|them|the\s+\w+)\s+)?(?:in|on|to|into)\s+(?:the\s+)?(?:system|host|CPU)\s+(?:RAM|memory)\b", r"\bhost[\s-]RAM\b", r"\bthe\s+rest\s+(?:\w+\s+){0,2}?on\s+(?:the\s+)?CPU\b",
                r"\bhow\s+many\s+(?:\w+\s+)?layers\b", r"\boffload(?:s|ing|ed)?\s+(?:only\s+)?\d{1,3}\s+(?:of\s+(?:the\s+)?\d{1,3}\s+)?layers\b", r"卸載到", r"放到\s*CPU", r"(?:層|權重|專家)[^，。,；;]{0,6}?(?:跑|放|留|卸載)(?:在|到)\s*(?:CPU|記憶體|內存|系統記憶體)", r"放到\s*(?:系統)?記憶體", r"CPU\s*offload",
                # the model split between GPU and CPU memory: "顯卡加 CPU 混合推理", "most of the model sits in system RAM"
                r"(?:GPU|顯卡|CPU)\s*(?:加|\+|和|與|跟)\s*(?:GPU|顯卡|CPU)\s*(?:的)?\s*混合推[理論]", r"異構推[理論]",
                r"\b(?:model|layers|weights|experts)\b[^.?!]{0,24}\b(?:sits?|lives?|resides?|stays?|is|are)\s+in\s+(?:the\s+)?(?:system|host|CPU)\s+(?:RAM|memory)\b"],
    "kv-quantization": [r"\bKV[\s-]*cache[\s-]*(?:dtype|quant\w*|precision|compression|in\s+(?:FP8|INT8|INT4|Q8|Q4))",
                        r"\b(?:FP8|INT8|INT4|q8_0|q4_0|quantized|quantize[sd]?|\d-bit)(?:\s+(?:the\s+)?|-)KV(?:[\s-]*cache)?\b",
                        r"\bquantiz\w*\s+(?:the\s+)?KV\b",
                        # engine settings for the cache's dtype: "fp8_e4m3 KV cache", LMDeploy "quant-policy 8",
                        # TabbyAPI / ExLlama "cache_mode Q4"
                        r"\b(?:FP8|INT8)[_-]E[45]M[23]\s+KV\b", r"\bquant[-_\s]?policy\b", r"\bcache[-_\s]?mode\s*[=:]?\s*(?:Q[468]|FP8|INT8|[48][\s-]?bit)\b",
                        r"\b(?:FP8|INT8|INT4|Q8_0|Q4_0|NVFP4|[48][\s-]?bit)\s*(?:的|for\s+(?:the\s+)?|on\s+the\s+)\s*KV\b", r"\bKV[\s-]*cache\s+(?:be\s+|to\s+be\s+)?quantiz", r"\bkv[-_]cache[-_]dtype\b",
                        r"KV\s*cache\s*(?:要|用|量化成?|改成?)?\s*(?:量化|FP8|INT8|INT4)", r"KV\s*量化", r"量化\s*KV",
                        r"\bKV(?:[\s-]*cache)?[^.,;?!。，；？]{0,16}?(?:\b|(?<=[\u4e00-\u9fff]))(?:FP8|INT8|INT4|Q8_0|Q4_0|FP4|NVFP4|8[\s-]?bit|4[\s-]?bit)\b"],
    "disaggregation": [r"\bdisaggregat", r"\b\d+P\d+D\b", r"\bP/D\b", r"\bPD\s*(?:分離|分离|disagg|separation|split)", r"\bprefill\s*(?:/|and|-)\s*decode\s+(?:split|separation|disagg)",
                       r"\b(?:separate|split|separating|splitting)\s+(?:the\s+)?prefill\b", r"\bremote[\s-]prefill\b",
                       r"prefill\s*(?:跟|和|與)\s*decode\s*分開", r"分離式(?:部署|推論|推理)", r"\b(?:prefill|decode)[\s-](?:only\s+)?(?:workers?|nodes?|instances?)\b",
                       r"\bprefill\b[^.?!。？]{0,30}\bdecode\b[^.?!。？]{0,30}\b(?:separate|split|different|dedicated|apart|own)\b"],
    "power-mode": [r"\bpower[\s-]?(?:mode|profile)s?\b", r"\bnvpmodel\b", r"\bMAXN\b", r"\bjetson_clocks\b", r"功耗模式", r"電源模式", r"效能模式"],
    "tool-calling": [r"\b(?:function|tool)[\s-]?call(?:ing|s)?\b", r"\btool[\s_-]choice\b", r"\btool[\s-]call[\s-]parser\b",
                     r"工具呼叫", r"函式呼叫", r"函數呼叫", r"工具調用"],
    "flash-attention": [r"(?<![\w-])-fa\b", r"--flash-attn\b", r"\bflash[\s-]?attention\b(?=[^.?!。？]{0,40}(?:flag|option|on|off|llama|-fa))"],
    # self-hosting weighed against a per-token price (an API, $/1M); hourly prices alone are not the topic
    "cost-per-token": [r"\bcheaper\s+than\s+(?:\w+\s+){0,3}APIs?\b",
                       r"\bself[\s-]?host\w*\b[^.?!]{0,60}\b(?:cheaper|cost|worth)(?=[\s\S]*?(?:\bAPIs?\b|\bper\s+(?:1\s*)?(?:M|million)\b|/\s*(?:1\s*)?M(?:tok)?\b|\bper[\s-]token))",
                       r"(?:\bAPIs?\b|\bper\s+(?:1\s*)?(?:M|million)\b|/\s*(?:1\s*)?M(?:tok)?\b|\bper[\s-]token)[\s\S]*?\bself[\s-]?host\w*\b[^.?!]{0,60}\b(?:cheaper|cost|worth)",
                       r"\b(?:cheap|cheaper|cheapest|expensive|pricier)\s+per\s+(?:output\s+)?(?:token|1\s*M\b|million)", r"每\s*(?:一)?個?\s*tokens?\s*(?:的\s*)?(?:比較|最|更|會)?\s*(?:便宜|貴|省|划算)",
                       r"\bAPIs?\b[^.?!]{0,30}\b(?:vs\.?|versus|or)\s+self[\s-]?host", r"比\s*API\s*(?:還)?便宜", r"自架[^。？?]{0,20}(?:划算|便宜|成本)",
                       r"(?:cost|price|\$)\s*(?:per|/)\s*(?:1\s*)?(?:M|million)\s*(?:(?:output|input|generated|prompt)\s+)?(?:tokens?|tok)\b",
                       r"\$\s*/\s*(?:1\s*)?M(?:tok)?\b", r"\bper\s+(?:1\s*)?(?:million|M)\s+(?:(?:output|input|generated|prompt)\s+)?tokens?\b", r"\bcost\s+per\s+(?:output\s+)?token\b", r"\btokens?\s+per\s+dollar\b",
                       r"每\s*(?:百萬|1\s*M|一百萬)\s*(?:個\s*)?tokens?", r"(?:每|per)\s*1\s*M\s*tokens?", r"token\s*(?:的)?\s*成本",
                       r"\b(?:cost|price)\s+per\s+(?:1k|thousand|1,000)\s+tokens?\b",
                       r"\b(?:dollars?|cents?|USD)\s+(?:per|a|/)\s*(?:output\s+)?(?:token|(?:1\s*)?M\b|million(?:\s+tokens?)?)",
                       r"\bmillion\s+tokens?\b[^.?!]{0,24}\b(?:cost|price|pay)", r"\b(?:cost|price|pay)\b[^.?!]{0,30}\bmillion\s+tokens?\b",
                       r"(?:百萬|一百萬)\s*(?:個\s*)?tokens?[^。？?]{0,10}(?:多少錢|成本|價格|費用)",
                       r"\bper[\s-]token\s+(?:API\s+)?(?:prices?|pricing|costs?|rates?|fees?|billing)\b",
                       r"\bpay(?:ing)?\b[^.?!]{0,30}\b(?:a|per)\s+month\s+to\s+(?:an?\s+)?(?:API|GPT|OpenAI|Claude|Sonnet|Gemini)"],
    "parallelism": [r"(?<![A-Za-z])TP(?![A-Za-z])(?!-[A-Za-z])", r"(?<![A-Za-z])EP(?![A-Za-z])(?!-[A-Za-z])", r"(?<![A-Za-z])PP(?![A-Za-z])(?!-[A-Za-z])", r"\btensor[\s_-]*parallel", r"\bpipeline[\s_-]*parallel", r"\bexpert[\s_-]*parallel",
                    r"\bdata[\s_-]*parallel", r"張量並行", r"流水線並行", r"管線並行", r"專家並行", r"資料並行", r"數據並行",
                    r"(?:做|怎麼|如何|策略|方式)\s*並行", r"並行(?:策略|方式)", r"多卡還是單卡", r"單卡還是多卡", r"\btp[-_]size\b",
                    r"分散式推[理論]", r"(?:tensor|pipeline|expert|data)\s*並行",
                    # spreading one model over several cards or machines: "多卡推理", "讓它多卡一起載入", "是不支援雙卡嗎",
                    # "spread over multiple GPUs", "won't split it across both cards", "one model across multiple machines"
                    r"(?:多|雙|双)卡\s*(?:推[理論]|部署|載入|加載|一起|並行|同時|跑|運行|執行)", r"(?:支援|支持|用|讓它|讓模型)\s*(?:多|雙|双)卡",
                    r"(?:多|雙|双)卡\s*(?:嗎|呢)", r"只(?:有)?(?:跑|用|在)(?:在)?其中一張|只有一張卡在(?:用|跑|動)",
                    r"\b(?:split|spread|shard|distribute|splitting|spreading|sharding|distributing|split\s+up)\s+(?:it\s+|the\s+model\s+|inference\s+|(?:[\w.-]+\s+){1,4}?)?"
                    r"(?:across|over|between|onto)\s+(?:both|two|three|four|five|six|seven|eight|multiple|several|all|many|the|my|our|\d+|a\s+cluster\s+of)\b(?:\s+[\w-]+)?",
                    r"\b(?:one|a\s+single|the\s+same)\s+model\s+(?:across|over)\s+(?:multiple|several|many|two|both)\s+(?:machines|nodes|cards|GPUs)\b",
                    r"\bmulti[\s-]?(?:GPU|card)\s+(?:inference|serving|deployment|loading)\b", r"跨(?:節點|機器?|伺服器|主機|台)(?:做|的)?\s*(?:推[理論]|部署|並行|跑|運行|執行)",
                    r"(?:分散|拆|切)(?:在|到|成)\s*(?:多|兩|二|三|四|五|六|七|八|\d{1,2})\s*(?:台|張|片|個節點|節點|卡|顆)", r"\b(?:distributed|multi[\s-]node|cross[\s-]node)\s+(?:inference|serving)\b",
                    # the loader spreading layers over the cards (transformers' device_map), several cards put to work together
                    # ("四卡一起量化", "三卡一起跑"), a launcher's processes per node, every GPU wanted in use, "works up to 10 GPUs"
                    r"\bdevice[_\s-]?map\b\s*(?:[=:]|設成?|設為|設定?為?|用|set\s+to|to)?\s*[\"']?(?:auto|balanced(?:_low_0)?|sequential)\b",
                    r"(?:多|雙|双|[二兩两三四五六七八九十]|\d{1,2})\s*(?:張|片)?\s*卡\s*一起",
                    r"(?:吃滿|用滿|用上|跑滿|利用)\s*(?:所有|全部|每一?張|\d{1,2}|[二兩两三四五六七八])\s*(?:張)?\s*(?:卡|GPU|顯卡)", r"--?nproc[_-]per[_-]node\s*[= ]?\s*(?:[2-9]|\d{2})\b",
                    r"\b(?:use|using|uses|utili[sz]e)\s+(?:every|each|all)\s+(?:of\s+)?(?:the\s+|my\s+|our\s+|\d+\s+)?(?:GPUs?|cards)\b",
                    r"\b(?:only\s+)?uses?\s+(?:just\s+)?one\s+of\s+(?:my|the|our)\s+(?:\d+|two|four|eight)\s+(?:GPUs|cards)\b",
                    r"\b(?:works|scales|runs)\s+(?:fine\s+)?(?:up\s+)?to\s+\d+\s+(?:GPUs|cards)\b",
                    # several machines or a model split as such: "多機推理", "多機多卡", "模型並行", "model parallelism"
                    # (a deployment on several machines may be replicas: "多機部署" alone is not the split)
                    r"多(?:機|机|節點|节点|台機器|台机器)(?:多卡)?\s*(?:推[理論]|並行|并行|分散式|分布式|載入|加載)|多機多卡|多机多卡",
                    # the second card left idle: the split did not happen ("第二張卻完全沒用到")
                    r"第二張(?:卡)?[^。，,；;]{0,8}?(?:沒用到|沒有用到|沒吃到|沒有吃到|完全沒|閒置|沒動|空著)",
                    # a launcher's card count ("--n-gpu 2")
                    r"--?n[_-]gpus?\s*[= ]\s*[2-8]\b"],
    "platform-support": [],   # needs a platform and a support cue in one sentence: see agent/extract_topics.py
    "quantization-format": [r"\bquant(?:ization)?\s+formats?\b", r"\b(?:which|what)\s+quant(?:ization|s)?\b(?!\s+(?:of|is))", r"量化格式",
                            r"(?:哪種|哪個|哪一種|什麼)\s*量化", r"量化\s*(?:要)?選哪",
                            rf"{_FORMAT}\s*(?:,|/|\bor\b|\bvs\.?|\bversus\b|還是|或是?|跟|和|與)\s*{_FORMAT}",
                            # whether to quantize, or to which format: "should we quantize to FP8?", "要不要量化成 FP8"
                            rf"\b(?:should|shoud|shall|worth|recommend\w*|would\s+you)\b(?:\s+(?!KV\b|cache\b)[A-Za-z']+){{0,4}}?\s+{_FORMAT}(?![\s-]*KV)[^.!?。]{{0,40}}\?",
                            rf"\b(?:(?:should|shoud|shall)\s+(?:we|i)|is\s+it\s+worth|worth\s+(?:going|switching|moving))\b(?:\s+(?!KV\b|cache\b)[A-Za-z']+){{0,3}}?\s+{_FORMAT}(?![\s-]*KV)",
                            r"\b(?:should|shoud|shall)\s+(?:we|i)\s+quanti[sz]e\b(?![^.!?。]{0,12}\bKV\b)",
                            rf"(?:要不要|該不該|需不需要|是否(?:要|該)?|值不值得)\s*(?:做|進行|用|上|改用)?\s*(?:量化(?:成|到|為)?\s*)?(?:{_FORMAT}(?!\s*KV)|量化(?!\s*KV))"],
}
PLATFORMS = (r"\b(?:ROCm|AMD|Apple\s+Silicon|Metal|macOS|Mac|Intel|Arc|XPU|oneAPI|SYCL|Vulkan|Windows|WSL|ARM|aarch64|Jetson"
             r"|Ascend|NPUs?|TPUs?|Inferentia\d?|Trainium\d?|Neuron|Pascal|Volta|Turing|Ampere|Hopper|Blackwell|APUs?|Strix|Gaudi|HPU|Tenstorrent|P100|P40|V100|T4"
             r"|MI\d{2,3}X?|CPU[\s-]only|compute\s+capability|sm_?\d{2,3}|Atlas|Huawei|iGPUs?|OpenVINO|910[BC]\d?|310[PB]\d?|300I(?:\s+Duo)?)\b|老架構|舊架構|舊顯卡|蘋果|昇騰|昇腾|華為|华为")
SUPPORT_CUES = (r"\bsupport(?:s|ed|ing)?\b|\bcompatib|\bavailable\s+(?:on|for)\b|\binstall(?:ed|ing)?\b(?!\s+is)|\bbuil[dt]\b(?![^.?!,;]{0,30}\bengines?\b)"
                r"|支援|支持|相容|兼容|能不能跑|可以跑|跑得動|能跑|跑在|能用|可以用|能不能(?:部署|用|執行|運行)|可行(?:嗎|吗)|行不行|行得通"
                r"|(?:可以|能|能不能|可不可以)\s*在[^。？?]{0,24}(?:跑|執行|運行|使用|安裝|推理|推論|部署)"
                r"|(?:可以|能|能不能|可不可以)\s*(?:部署|放|裝|跑)\s*(?:到|在)")
# a dot inside a version or model name ("Qwen3.5-9B") does not end the sentence
RUN_ON = r"\b(?:run|runs|running|work|works|working|use)\b(?:[^.?!。？]|\.(?=\d)){0,30}?\b(?:on|with)\b|\b(?:can|could|does|do|will|is)\b(?:[^.?!。？]|\.(?=\d)){0,24}\buse\b"

# A message in a thread that already has a profile either amends it ("what if we use AWQ
# instead?") or describes a new situation ("now 2×H100, Qwen3 32B, just me").
AMEND_CUES = [r"\bwhat\s+if\b", r"\binstead\b", r"\bhow\s+about\b", r"\bwhat\s+about\b", r"\bswitch(?:ing)?\s+to\b",
              r"\bchange\s+(?:it\s+)?to\b", r"\brather\b", r"\bsame\s+(?:setup|setting|thing|but)\b", r"\balso\s+with\b",
              r"\bkeep\s+(?:everything|the\s+rest)\b", r"改用", r"換成", r"改成", r"換用", r"如果(?:改|換|用)", r"那如果", r"要是",
              r"假如", r"其他不變", r"同樣(?:的)?(?:設定|環境)", r"一樣的(?:設定|環境)"]
NEW_CUES = [r"^\s*(?:ok(?:ay)?[,.]?\s+)?now\b", r"\bnew\s+(?:setup|situation|question|project|case|scenario|cluster)\b",
            r"\banother\s+(?:setup|situation|question|project|case|scenario|cluster|team)\b", r"\bdifferent\s+(?:setup|situation|project|case)\b",
            r"\bseparate(?:ly)?\b", r"\bthis\s+time\b", r"\bunrelated\b", r"^\s*現在", r"另一個", r"另外一個", r"新的(?:情境|案子|專案|問題|環境)",
            r"換個(?:情境|問題|案子)", r"另外(?:問|有)"]

# A model family word and what follows it ("QwQ-32B", "Gemma 4 26B", "GLM-5.1", "Code Llama 34B"):
# looks like a model name whether or not the catalog knows it.
MODEL_NAME = (r"(?<![\w.-])(?:Llama|Qwen|QwQ|Mistral|Mixtral|Gemma|Phi|GLM|ChatGLM|DeepSeek|Yi|InternLM|Baichuan|Falcon|Nemotron"
              r"|Command[\s-]?R|Granite|OLMo|SmolLM|MiniMax|Kimi|gpt-oss|Codestral|Devstral|Magistral|Vicuna|StarCoder|CodeLlama"
              r"|Hunyuan|ERNIE|Jamba|Zephyr|Dolphin|Hermes)"
              r"(?:[\w.:-]*\d[\w.:-]*|[\w.:-]*(?:[\s-]\d+(?:\.\d+)?\s?[BbMm]\b))"
              r"(?:[\s-](?:Coder|Instruct|Chat|VL|Math|Next|Omni|Thinking|Flash|Large|Medium|Small|Mini|Tiny|Nano|Pro|Max|Plus"
              r"|Turbo|Lite|Air|Ultra|Vision|Nemo)\b)*")   # "Qwen3 Coder", "Qwen2.5 Max" are quoted whole
