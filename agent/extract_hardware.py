"""Hardware, device count, nodes, memory override and interconnect from the user's words.

"8×H100", "4 張 4090", "two L40S", "a single 4090", "M3 Ultra 512GB", "8 nodes of H100",
"兩台 8 卡 H100", "one 8x H100 node" (8 devices, 1 node), "two 8-GPU servers", "Xeon, no GPU",
"沒有 NVLink" (several cards → PCIe), "InfiniBand".
"""
from __future__ import annotations

import re

from agent import lexicon
from agent.extract_aliases import AliasHit, hardware_class, hardware_index
from agent.extract_base import FORMER, Finding, negated, negated_adjacent, negation_cue, overlaps
from agent.extract_numbers import COUNT, parse_int
from agent.extract_quantity import product_number
from rules.errors import ProfileError

_F = re.I | re.ASCII
_CLS = (r"(?:[x×X*]|-?\s*way\b|-?\s*cards?\b|-GPUs?\b|pcs?\b(?:\s+of)?|pieces\s+of|units\s+of|張|片|塊|块|卡|台|顆|颗|枚|個|个)")
_PER_DEVICE = set("x×X*張片塊块卡顆颗枚個个")
_PER_DEVICE_WORD = re.compile(r"-?\s*(?:way|cards?|GPUs?|pcs?|pieces|units)\b", re.I)   # a multiplier or card classifier: devices, not machines
_BRAND = r"(?:NVIDIA|GeForce|AMD|Radeon|Instinct|Apple|Intel|Mac\s*Studios?(?:\s+with)?|Mac\s*Pros?|Mac\s*minis?|MacBook\s*Pros?|Macs?|的|of|the)"
# The state of the cards between their count and their name: "two used 3090s", "兩張二手 3090".
_STATE = r"(?:RunPod|Vast(?:\.ai)?|Lambda|CoreWeave|Paperspace|AWS|GCP|Azure|on[\s-]demand|spot|laptop|notebook|mobile|desktop|筆電(?:版|的)?|used|second[\s-]?hand|brand[\s-]new|new|refurb(?:ished)?|old(?:er)?|spare|identical|matching|rented|leased|cloud|二手|全新|舊的?|閒置的?|租(?:來|用)?的|consumer(?:[\s-]grade)?|gaming|消費級|消费级|遊戲|游戏|家用|民用|專業|专业|企業級|企业级)"
# A count written before the device name: "8×", "8 x ", "4 張 ", "two ", "a single ", "an ".
_PREFIX = re.compile(rf"(?:(?P<num>{COUNT})\s*(?P<cls>{_CLS})?|(?P<one>\ban?\b|[單单]\s*{_CLS})|(?P<two>雙路|双路|\bdual[\s-]socket|雙(?!\s*(?:路|卡|機|台))|双(?!\s*(?:路|卡|机|台)))|(?P<sock>{COUNT})[\s-]*sockets?\b|(?P<sock2>[二兩两三四八2-8])\s*路)"
                     rf"[\s-]*(?:{_STATE}[\s-]*)*(?:\d{{1,3}}\s?(?:GB|G)\s+)?(?:{_BRAND}[\s-]*)*$", _F)   # "two 24GB 4090s"
# ... or after it: "H100 x 8", "H100×8", "4090 兩張", "(x2)".
_SUFFIX = re.compile(rf"(?:\s*(?:Ti|SUPER)\b)?(?:\s*[(\[]\s*\d+\s?[GT]B?\s*[)\]]|\s+\d+\s?(?:GB|G|TB)\b)?(?:\s*(?:GPUs?|cards?|顯卡)(?:\s*顯卡)?)?\s*(?:[(\[]\s*)?(?:共\s*|,\s*)?"
                     rf"(?:[x×*]\s*(?P<num>\d{{1,4}}|{COUNT})(?![\w]|\.\d)|(?P<num2>{COUNT})\s*(?:張|片|塊|卡|顆)"
                     rf"|(?P<machines>{COUNT})\s*台|(?P<two>雙路|双路|\s*雙\s*CPU))", _F)
_GRID = re.compile(r"(?:s\b)?\s*(?:(?:nodes?|servers?|machines?|hosts?|boxes|伺服器|機器|主機)\s*)?[(（]\s*(?P<m>\d{1,3})\s*[x×*]\s*(?P<n>\d{1,2})\s*[x×*]\s*\d{2,3}\s*(?:GB|G)\b", re.I)
_NODE_WORD = r"(?:nodes?|servers?(?![\s-]+Edition)|machines?|hosts?|boxes|workstations?|節點|伺服器|機器|主機|電腦|工作站)"
_DUAL = re.compile(r"dual\b|雙|双|\w+[\s-]*sockets?\b|[二兩两三四八2-8]\s*路", re.I)   # sockets of one machine
_AFTER_IS_NODE = re.compile(rf"(?:s|'s)?\s*(?:GPU\s+)?{_NODE_WORD}(?!\.\w)", _F)   # "16 H100 GPU nodes"
# "one 8x H100 node", "two 8-GPU servers", "an 8×H200 box": machines (lead) of `per` devices each.
_NODE_PHRASE = re.compile(
    rf"(?:(?P<num>{COUNT})|(?P<one>\ban?\b))(?:[\s-]+|\s*[x×]\s*)(?P<per>{COUNT})\s*(?:[x×X*]|-?\s*GPUs?\b|卡|張)"
    rf"(?:[^,;:.，。；：\n]|\.(?=\w)){{0,28}}?\s{_NODE_WORD}(?![A-Za-z])", _F)   # "4 4-GPU g6.xlarge servers"
_RACK = re.compile(r"\s*(?:[\w-]*?\s*)?NVL(?P<n>\d{2,3})\b(?!\s?(?:GB|G|TB)\b)", _F)
_MACHINE_CLS = re.compile(rf"台|{_NODE_WORD}", _F)
_DGX = re.compile(r"\b[DH]GX[\s-]*$", _F)
# A server model: the machine itself ("Atlas 800", "PowerEdge XE9680"), so a number before it counts machines
_SERVER_NAME = r"(?:Atlas\s*-?\s*[89]\d\d[A-Z]?(?:\s*[A-Z]\d)?|(?:PowerEdge|ProLiant|ThinkSystem|SuperServer)\s*-?\s*[A-Z]*\d+[A-Za-z\d-]*)(?![A-Za-z\d])"
_NODES = re.compile(
    rf"(?P<num9>{COUNT})\s*(?:個|台)?\s*{_SERVER_NAME}|"
    rf"(?P<num>{COUNT})[\s-]*(?:個|台)?\s*{_NODE_WORD}(?![A-Za-z])(?!\.\w)"   # not a file ("8 server.py")
    rf"|--?n[_-]?nodes?\s*[= ]\s*(?P<num8>\d{{1,4}})\b"   # a launcher's machine count ("--nnodes 16")
    rf"|(?P<num2>{COUNT})\s*台(?=\s*[(,]?\s*(?:各|每台)?\s*(?:有|裝|放|插|配)?\s*(?:{COUNT})\s*(?:卡|張|[x×]))"
    rf"|(?<=卡)\s*(?P<num5>{COUNT})\s*台|(?:across|over)\s+(?P<num3>{COUNT})\s+{_NODE_WORD}|{_NODE_WORD}\s*(?P<num4>{COUNT})\s*台"
    rf"|(?:共|總共|一共|合計)\s*(?P<num6>{COUNT})\s*台|(?P<num7>{COUNT})\s*台(?=\s*(?:[)）,，。;；]|$))"   # "（每台 8 張，共 2 台）"
    rf"|(?P<one>單機|单机|單節點|单节点|單台(?:機器|伺服器|主機)?)", _F)
_GENERIC_COUNT = re.compile(
    rf"(?P<num>{COUNT})\s*(?:張|片|塊|个|個|[x×*])?\s*(?:\d+\s?[GT]B?\s*(?:顯存|显存|VRAM\s+)?(?:的\s*)?)?(?:(?:graphics|video|GPU)\s+)?(?:GPUs?|[HNTX]PUs|cards?|顯卡|卡|accelerators?)(?![A-Za-z])"
    rf"|(?P<num2>{COUNT})-(?:GPU|card)\b|(?P<two>雙卡|双卡)|(?P<one>單卡|单卡)"
    rf"|(?:每|per\s+)(?:台|個節點|節點|node|server|machine)\s*(?:有|放|裝|with)?\s*(?P<num3>{COUNT})\s*(?:張|片|卡|GPUs?)", _F)
# "一張卡一小時 2 美金": the card of a unit price, not a device count.
_PER_HOUR = re.compile(r"\s*(?:一|每|per|an?)?\s*(?:小時|(?:hours?|hr)\b)", _F)
_NODE_GATE = re.compile(rf"{_NODE_WORD}|{_SERVER_NAME}|台|單機|单机|單節點|单节点", _F)
_COUNT_GATE = re.compile(r"GPU|[HNTX]PUs|card|卡|張|片|accelerator", _F)
_MEMORY = re.compile(
    r"(?P<num>\d+(?:\.\d+)?)\s?(?P<unit>TB|GB|T|G)(?![A-Za-z/])(?!\s*/\s*s)\s*(?:of\s+)?"
    r"(?P<word>unified\s+memory|VRAM|RAM|memory|HBM|GPUs?|cards?|統一記憶體|記憶體|顯存|內存|顯卡|卡|版本?)?", _F)
_MEM_GLUE = re.compile(r"^\s*(?:(?:的\s*)?(?:Mac\s*(?:mini|Studio|Pro)|MacBook\s*(?:Pro|Air))\s*)?"
                       r"(?:with\s+|w/\s*|\(|,\s*|-\s*|配\s*|搭配\s*)?$", _F)
_TOTAL = re.compile(r"^\s*(?:total|in\s+total|combined|altogether)|總共|合計|加起來", _F)
_SPLIT = re.compile(r"^(?:s\b)?[\s,]*(?:(?:GPUs?|cards?|devices|卡)\s*)?(?:split\s+|spread\s+|in\s+total\s*|total\s*|總共\s*)?"
                    r"(?:分(?:成|在|布在|散在|到)?|across|over|into|between|in|on|[(\[]\s*(?:across\s+|over\s+|in\s+|on\s+|分(?:成|在)?\s*|共\s*)?)"
                    r"(?![A-Za-z])", re.I)
# "(2 nodes, 8 each)", "2 nodes of 8": the nodes phrase says the count is per node after all
_EACH = re.compile(r"[^.;:,，。；]{0,12}?(?:\beach\b|\bapiece\b|\bper\s+(?:node|server|machine|box|host)\b|各|每台|每個節點|\bof\s+\d)", re.I)
_INTERCONNECT = [(v, re.compile("|".join(p), _F)) for v, p in lexicon.INTERCONNECT.items()]


# A number written right before a device that cannot be a device count: negative ("-5 H100"; a dash
# between spaces, "FP8 - 8x H100", separates clauses), a power or exponent ("10^9 H100", "1e9 H100",
# "10 億張 H100"), or more digits than any machine has devices.
_BAD_COUNT = re.compile(rf"(?P<bad>(?<![\w.^])(?<!\s)-\s*\d+(?:\.\d+)?|(?:(?<=^)|(?<=\s))-\d+(?:\.\d+)?|(?<![\w.])\d+(?:\.\d+)?\s*(?:\^|\*\*|[eE]\+?)\s*-?\d+"
                        rf"|(?<![\w.])\d+(?:\.\d+)?\s*[萬万億亿兆]"
                        rf"|(?<![\w.,])\d{{5,}}|(?<![\w.,])\d{{1,3}}(?:,\d{{3}})+(?![\d,]))\s*(?P<cls>{_CLS})?[\s-]*(?:{_BRAND}[\s-]*)*$", _F)
MAX_COUNT = 4096   # rules.profile.Profile.count's upper bound


def _check_count(text: str, hit: AliasHit) -> None:
    """ProfileError (naming the field and quoting the words) for an impossible device count."""
    m = _BAD_COUNT.search(text, max(0, hit.start - 40), hit.start)
    if m and m.end() == hit.start:
        words = m.group("bad").strip()
        if "," in words and int(words.replace(",", "")) <= MAX_COUNT:   # "2,048 H100": a count
            return
        if re.search(r"[萬万億亿兆]", words):   # "10 億張 H100": a real number, far too many devices
            raise ProfileError("count", f'"{words}" is outside what the advisor can plan for '
                                        f"(count must be from 1 to {MAX_COUNT:,})",
                               zh=f"「{words}」超出顧問能規劃的範圍（每個節點須為 1 到 {MAX_COUNT:,} 個裝置）")
        raise ProfileError("count", f'"{words}" is not a possible number of devices '
                                    f"(a whole number from 1 to {MAX_COUNT:,} per node)",
                           zh=f"「{words}」不是可能的裝置數量（每個節點須為 1 到 {MAX_COUNT:,} 的整數）")


def _count_before(text: str, hit: AliasHit) -> tuple[int, int, bool] | None:
    """(count, start of its words, written as a per-device multiplier "8x"/"8 張") right before a device name."""
    _check_count(text, hit)
    m = _PREFIX.search(text, max(0, hit.start - 28), hit.start)
    if not m or m.end() != hit.start:
        return None
    n = 1 if m.group("one") else 2 if m.group("two") else parse_int(m.group("num") or m.group("sock") or m.group("sock2"))
    if n and n > MAX_COUNT:
        raise ProfileError("count", f'"{m.group("num")}" devices is more than the advisor plans for '
                                    f"(at most {MAX_COUNT:,} per node)",
                           zh=f"「{m.group('num')}」個裝置超出顧問能規劃的範圍（每個節點最多 {MAX_COUNT:,} 個）")
    cls = (m.group("cls") or "").strip()
    per_device = bool(cls) and (cls in _PER_DEVICE or bool(_PER_DEVICE_WORD.fullmatch(cls))) or bool(m.group("two") or m.group("sock") or m.group("sock2"))
    return (n, m.start(), per_device) if n and n <= 1024 else None


def _count_after(text: str, hit: AliasHit) -> tuple[int, int, bool] | None:
    """(count, end of its words, counted in machines "一台") written right after a device name."""
    m = _SUFFIX.match(text, hit.end)
    if not m:
        return None
    n = 2 if m.group("two") else parse_int(m.group("num") or m.group("num2") or m.group("machines"))
    return (n, m.end(), bool(m.group("machines"))) if n and n <= 1024 else None


def count_of(text: str, start: int, end: int) -> list[Finding]:
    """The device count (and machines, "2 × 8 H800") written around a device the catalog does not know
    ("10 P40s", "8xH20"); empty when there is none."""
    brand = re.search(r"[A-Z][A-Za-z]+\s+$", text[max(0, start - 16):start])   # "4 Biren BR100"
    hit = AliasHit("", start, end, False)
    before, after = _count_before(text, hit), _count_after(text, hit)
    if not before and brand:
        before = _count_before(text, AliasHit("", start - len(brand.group(0)), end, False))
    if before:
        return [Finding("count", before[0], before[1], end), *_machines_before(text, before[1], end)]
    if after and not after[2]:
        return [Finding("count", after[0], start, after[1])]
    return []


_MACHINES_TIMES = re.compile(rf"(?P<num>{COUNT})\s*[x×*]\s*$", _F)

# Rack-scale systems: "GB200 NVL72" names a rack whose 72 GPUs share one NVLink domain, so "4 racks of
# GB200 NVL72" or "4x GB200 NVL72" are 4 racks of 72 devices (nodes x count), not 4 GPUs.
_NVL = re.compile(r"[\s-]*NVL\s*(?P<size>\d{2,3})(?![\d])(?!\s?(?:GB|G|TB)\b)", _F)   # "H100 NVL 94GB" is memory
_RACK_WORD = r"(?:racks?|機櫃|机柜|機架|机架)"
_RACKS_BEFORE = re.compile(rf"(?P<num>{COUNT})\s*(?:個|个|台|座)?\s*{_RACK_WORD}\s*(?:of\s+)?(?:the\s+)?$", _F)
_SOME_RACKS = re.compile(rf"(?:好幾|幾|數|数|多)\s*(?:個|个|台|座)?\s*{_RACK_WORD}|\bracks\b", _F)
_RACKS_AFTER = re.compile(rf"\s*(?:[x×*]\s*(?P<times>\d{{1,3}})(?![\w.])|{_RACK_WORD})", _F)


def _rack(text: str, hit: AliasHit, before: tuple[int, int, bool] | None) -> list[Finding]:
    """count (devices per rack) and nodes (racks) for a rack-scale system named by its NVL size."""
    inside = _NVL.search(text, hit.start, hit.end)
    nvl = inside or _NVL.match(text, hit.end)
    if not nvl or hardware_class(hit.id) != "datacenter":
        return []
    size = int(nvl.group("size"))
    if not 8 <= size <= 576:
        return []
    racks, start, end = 1, hit.start, max(hit.end, nvl.end())
    word = _RACKS_BEFORE.search(text, max(0, hit.start - 24), hit.start)
    after = _RACKS_AFTER.match(text, end)
    if word and word.end() == hit.start:
        racks, start = parse_int(word.group("num")) or 1, word.start()
    elif before and before[0] >= size and before[0] % size == 0:   # "144 GB200 NVL72": a device total
        racks, start = before[0] // size, before[1]
    elif before:                                                   # "4x GB200 NVL72", "4 台 … 機櫃"
        racks, start = before[0], before[1]
    elif after and after.group("times"):                           # "GB200 NVL72 x4"
        racks, end = int(after.group("times")), after.end()
    elif _SOME_RACKS.search(text, max(0, hit.start - 30), min(len(text), end + 30)):
        return []    # "several racks of GB200 NVL72": how many is unknown, so neither count nor nodes is said
    out = [Finding("count", size, start, end)]
    if racks > 1:
        out.append(Finding("nodes", racks, start, end))
    return out


def _machines_before(text: str, start: int, end: int) -> list[Finding]:
    """"2 × 8 H800": two machines of eight devices (the number before the device count's multiplier)."""
    m = _MACHINES_TIMES.search(text, max(0, start - 8), start)
    n = parse_int(m.group("num")) if m else None
    return [Finding("nodes", n, m.start(), end)] if n and 1 < n <= 1024 else []




# "先用 A800 × 2，之後改用 A100 × 4", "then we switched to 4x L40S": the device switched to later is the current one
# (a switch with no time word, "換成 1 張 A100 反而還可以", is a trial, not the setup).
_ARTICLE_ONLY = re.compile(r"an?\s", _F)
# "thinking of replacing them with two R9700 cards": the device replacing the current one is the one asked about
_REPLACED_WITH = re.compile(r"\breplac(?:e|ing)\s+(?:it|them|this|that|these|those|(?:the|my|our)\s+[\w-]+)\s+with\s+[^,;.]{0,28}$", _F)
_SWITCHED_TO = re.compile(r"(?:之後|後來|現在|目前|接著|\bnow\b|\bthen\b|\blater\b|\bsince\s+then\b)\s*(?:we\s+|I\s+|又|就)?"
                          r"(?:改用|改成|換成|換到|換用|改為|改(?=\s*(?:\d|[一二兩三四五六七八九十]))|switch(?:ed|ing)?\s+(?:over\s+)?to|mov(?:ed|ing)\s+to|migrat(?:ed|ing)\s+to)"
                          r"[^,;.，；。]{0,10}$", _F)


# "跟一張 4090 跑原生模型比差了快十倍", "跟 M3 Ultra 工作站比起來": a device set beside the user's to compare against
_WITH_BEFORE = re.compile(r"(?:跟|和|與|与)\s*(?:一張|一台|單張|單台)?\s*$")
_COMPARED_AFTER = re.compile(r"[^，。,；;？?！!]{0,16}?比(?:起來|下來|一比)?\s*(?:差|慢|快|好|少|多|強|弱|高|低|剩|起來|下來)")
_YARDSTICK = re.compile(rf"(?:比起|相比(?:於)?|相較(?:於)?|\b(?:slower|faster|cheaper|pricier|worse|better|quicker|more|less)\s+(?:\w+\s+)?than|\bworth\s+it\s+over"
                        rf"|\b(?:upgrad\w*|step(?:ping)?\s+up|switch\w*|mov\w*)\s+(?:from\s+)?(?:\w+\s+){{0,2}}?over|\binstead\s+of|\brather\s+than|\bcompared\s+(?:to|with))"
                        rf"\s+(?:on\s+|with\s+|in\s+)?(?:an?\s+|the\s+|my\s+|our\s+)?(?:{_BRAND}[\s-]*)*$", _F)
_LISTED = re.compile(r"\s*(?:,|/|\bor\b|\band\b|或|和|跟)\s*(?:on\s+|an?\s+|the\s+)?$", _F)


# someone else's setup: "看到別家公司用 8×A100 部署", "a friend's 4090", "others run it on 8x H100"
_THEIRS = re.compile(r"(?:別(?:家|人|的公司)(?:公司)?|其他人|人家|\bothers\b|\bother\s+people\b|\b(?:a|my)\s+friend'?s\b|\bsomeone(?:\s+else)?'s\b)"
                     r"[^,;.，；。!?？]{0,12}$", _F)


# a published setup the user read about: "the official recipe is 'tp 8' on H200", "官方範例是在一台 B200 上"
# (the published setup is the subject: "the recipe is/puts/uses ...", never "I followed a tutorial on my 4090")
_REFERENCE = re.compile(r"(?:\bofficial\s+(?:recipe|guide|docs?|documentation|example|tutorial|instructions)\b"
                        r"|\b(?:recipe|guide|tutorial|blog\s+post|example|model\s+card)s?\s+(?:is|are|was|uses?|used|runs?|ran|puts?"
                        r"|shows?|says|targets?|assumes?)\b"
                        # "照官方說明用 vLLM 在 16 張 H100 上部署": the user followed the instructions on their own cards
                        r"|(?<!照)(?<!照著)(?<!依照)(?<!跟著)(?<!根據)(?<!參考)(?<!參照)官方(?:說明|範例|文件|建議|教學|的?例子)|(?:網路上|網上|別人|原廠)的?(?:教學|範例|文章|說明)|範例是|教學(?:是|用))"
                        r"(?:[^,;.，；。!?？]|\.(?=\d)){0,48}$", _F)


_EVEN_ONE = re.compile(r"連\s*(?:一|1)?\s*(?:張|片|塊|台)?\s*$")
_EVEN_NOT = re.compile(r"\s*(?:\d+\s*G[B]?\s*)?(?:都|也)\s*(?:放不下|塞不下|裝不下|不夠|跑不動|跑不起來)")
_NO_FIT = re.compile(r"(?:doesn't|does\s+not|won't|wouldn't|can't|cannot|don't|do\s+not)\s+(?:even\s+)?fit\s+(?:on\s+|in\s+|into\s+)?"
                     r"(?:an?\s+|one\s+|a\s+single\s+|1\s*x?\s*)?$", _F)


def _not_yardsticks(text: str, hits: list[AliasHit]) -> list[AliasHit]:
    """The hits left once devices named only as a yardstick are set aside ("20 times slower than on H100
    or H200", "slower than a Mac Studio M3 Ultra did"), with the ones listed right after them."""
    out, prev = [], None
    for h in hits:
        if _YARDSTICK.search(text, max(0, h.start - 40), h.start) or _THEIRS.search(text, max(0, h.start - 24), h.start) \
                or (_WITH_BEFORE.search(text, max(0, h.start - 6), h.start) and _COMPARED_AFTER.match(text, h.end)) \
                or _REFERENCE.search(text, max(0, h.start - 60), h.start) \
                or (prev and _LISTED.fullmatch(text, prev.end, h.start)):
            prev = h
            continue
        prev = None
        out.append(h)
    return out


# "offload the experts to CPU RAM", "Intel Arc": a CPU word that names memory or a GPU family, not a CPU device
_NOT_THE_CPU = re.compile(r"\s*(?:RAM|memory|DRAM|記憶體|內存|Arc\b|Radeon\b|Instinct\b|Gaudi\b)", _F)


# A device the user says they want to rent or buy ("想租一台配 RTX 4090 的雲主機") beats ones only listed before it
# ("H100、A100 動輒幾十萬"); in a contrast the device the complaint is about is theirs ("3090 三十秒做完，昇騰 910B 卻要六分鐘").
_WANTED = re.compile(r"(?:想|打算|準備|計畫|決定)\s*(?:要)?\s*(?:租|買|用|換|改用)[^，。,；;、]{0,8}$"
                     r"|\b(?:want|plan(?:ning)?|going|decided|looking)\s+to\s+(?:rent|buy|get|use)\s+(?:[\w-]+\s+){0,3}$", _F)
_CONTRAST = re.compile(r"\s*(?:卻|却|偏偏)")
# an engine named after a platform ("TGI Gaudi", "tgi-gaudi", "vllm-ascend") names the software, not the device
_ENGINE_PREFIX = re.compile(r"\b(?:TGI|vLLM|optimum|SGLang|lmdeploy)[\s-]+$", _F)


# "... on my A770. An RTX 3090 with similar TFLOPS does 60-70": a card opening its own sentence (or a "while" clause)
# with an article is someone else's, brought in to compare
_OTHER_ONE = re.compile(rf"(?:^|[.!?;]\s+|\b(?:while|whereas|but)\s+)(?:an?|the|one)\s+(?:(?:{_BRAND})[\s-]*)*$", _F)
_POSSESSED = re.compile(rf"(?:\bmy|\bour|我的|我們的|我們|我這(?:張|台|邊的?))\s*(?:(?:{_STATE}|{_BRAND}|\d+\s*x|\d+\s*[×*]|[一二兩三四五六七八]\s*張|\d+\s*張)[\s-]*)*$", _F)


def _plural_of(text: str, hit: AliasHit) -> AliasHit:
    """"2 V100s", "four V100s": a lowercase s after the model number is a plural, not the S variant (V100S),
    unless an article makes it one device ("a V100s")."""
    name = text[hit.start:hit.end]
    # only a name written with capitals and a small final s ("V100s"); all-lowercase "v100s" may be either
    if not re.search(r"\ds$", name) or not re.search(r"[A-Z]", name) or re.search(r"\b(?:an?|one|single)\s+$", text[max(0, hit.start - 8):hit.start], re.I):
        return hit
    from rules import catalog
    base = catalog.resolve_hardware(name[:-1])
    return AliasHit(base, hit.start, hit.end, hit.family) if base and base != hit.id else hit


def _pick(text: str, hits: list[AliasHit]) -> AliasHit | None:
    """The user's device: the first one given with a count, else the first accelerator, else the first."""
    live = [h for h in hits if not negated_adjacent(text, h.start) and not _NOT_THE_CPU.match(text, h.end)
            or hardware_class(h.id) != "cpu"]
    current = [h for h in live if not FORMER.search(text, max(0, h.start - 40), h.start)]
    live = current or live   # "we used to run 2x 4090, now 8x H100": the setup left behind is not the device
    # "the 4090 is faster than my 3090", "比起 H20，我們的 L20 慢很多": the device the user calls theirs is theirs
    # "2.5 times slower than a Mac Studio M3 Ultra": a device named only as the yardstick is not the user's, unless
    # the user calls it theirs ("the 4090 is faster than my 3090")
    kept = _not_yardsticks(text, live)
    rescued = [h for h in live if h not in kept and _POSSESSED.search(text, max(0, h.start - 40), h.start)]
    live = rescued or kept
    if not live:
        return None   # every device named is a yardstick: the user's own is not said
    if not live:
        return None
    # "連一張 A100 都放不下": a device the model would not even fit is a hypothetical, not the user's;
    # "doesn't fit one H100, so it's 2x H100": the one that does not fit gives way to the same device named again
    live = [h for h in live if not (_EVEN_ONE.search(text, max(0, h.start - 8), h.start) and _EVEN_NOT.match(text, h.end))]
    if not live:
        return None
    unfit = [h for h in live if _NO_FIT.search(text, max(0, h.start - 30), h.start)
             and any(o.id == h.id and o.start > h.end for o in live)]
    live = [h for h in live if h not in unfit]
    switched = [h for h in live if _SWITCHED_TO.search(text, max(0, h.start - 24), h.start)
                or _REPLACED_WITH.search(text, max(0, h.start - 48), h.start)]
    live = switched or live   # "先用 A800 × 2，之後改用 A100 × 4": the device switched to is the current one
    live = [h for h in live if _WANTED.search(text, max(0, h.start - 24), h.start)] \
        or [h for h in live if _CONTRAST.match(text, h.end)] or live
    # "my Intel Arc A770 ... an RTX 3090 with similar TFLOPS does 60-70": the card called theirs is theirs, not the one
    # another count or article introduces for comparison (r6-en-12, r6-en-13: plans were made for the other card)
    mine = [h for h in live if _POSSESSED.search(text, max(0, h.start - 40), h.start)]
    other = [h for h in live if h.id not in {m.id for m in mine} and _OTHER_ONE.search(text, max(0, h.start - 30), h.start)]
    if mine and other:
        live = [h for h in live if h not in other]
    counted = [h for h in live if _count_before(text, h) or _count_after(text, h) or _DGX.search(text[:h.start]) or _macs_counted(text, h)]
    # the same device named again with a number beats an article ("a g6.12xlarge with 4 × NVIDIA L4", "a P40 … 10 P40s")
    if counted and _ARTICLE_ONLY.match(text, (_count_before(text, counted[0]) or (0, -1))[1]):
        counted = [h for h in counted[1:] if h.id == counted[0].id and not _ARTICLE_ONLY.match(
            text, (_count_before(text, h) or (0, -1))[1])][:1] + counted
    accel = [h for h in live if hardware_class(h.id) != "cpu"]
    # "雙路 Xeon、兩張 RTX 4090": the counted GPUs run the model, the CPU sockets host them; sockets counted beside an
    # accelerator named without a number ("Arc Pro B60 in a dual Xeon box") still only host it
    return ([h for h in counted if h in accel] or accel or counted or live)[0]


_SOCKETS_INSIDE = re.compile(r"(?:雙|双)\s*(?:路\s*)?CPU|\b(?:dual|2|two)[\s-](?:socket|CPU)", _F)


def _device(text: str, hit: AliasHit) -> list[Finding]:
    """hardware, count (or nodes for whole machines) and DGX/HGX boxes for the chosen device."""
    out = [Finding("hardware", hit.id, hit.start, hit.end)]
    before, after = _count_before(text, hit), _count_after(text, hit)
    inside = _SOCKETS_INSIDE.search(text, hit.start, hit.end)
    if inside and not before and hardware_class(hit.id) == "cpu":   # the name took "雙CPU" in ("Intel server 雙CPU")
        return out + [Finding("count", 2, inside.start(), inside.end())]
    dgx = _DGX.search(text, max(0, hit.start - 6), hit.start)
    boxed = text[hit.start:hit.end].upper().startswith(("DGX", "HGX")) and hardware_class(hit.id) == "datacenter"
    machine = hardware_class(hit.id) in ("apple", "edge") or hit.id.startswith("dgx_spark")
    rack = _rack(text, hit, before)
    if rack:
        return out + rack
    if (dgx or boxed) and hardware_class(hit.id) == "datacenter":
        start = dgx.start() if dgx else hit.start
        out.append(Finding("count", 8, start, hit.end))
        if before:
            out.append(Finding("nodes", before[0], before[1], hit.end))
        elif after and after[0] > 1:   # "DGX H100 x2", "DGX A100 兩台": systems of eight, counted after the name
            out.append(Finding("nodes", after[0], start, after[1]))
        return out
    # "two GB200 NVL72 racks", "2 個 NVL72 機櫃": the number before a rack system counts racks (nodes),
    # never devices; the rack's own device count is the system's, not something the user stated
    rack = _RACK.match(text, hit.end) or _RACK.fullmatch(text, hit.start, hit.end)
    if rack and hardware_class(hit.id) == "datacenter":
        end = rack.end() if rack.end() > hit.end else hit.end
        if before:   # whatever its classifier ("2 個 NVL72")
            out.append(Finding("nodes", before[0], before[1], end))
        elif after:   # "GB300 NVL72 x 2"
            out.append(Finding("nodes", after[0], hit.start, after[1]))
        return out
    # "兩台 H100（2×8×80G）": machines × devices × memory written after the name
    grid = _GRID.match(text, hit.end)
    if grid and not machine and (not before or before[0] == parse_int(grid.group("m"))):
        n, per = parse_int(grid.group("m")), parse_int(grid.group("n"))
        return out + [Finding("nodes", n, before[1] if before else hit.start, grid.end()), Finding("count", per, hit.start, grid.end())]
    # "2 台 H100*8", "two servers of H100 x8", "four 910B*8 machines": machines before the name, devices
    # per machine after it
    if before and after and not before[2] and not after[2] and not machine \
            and (_MACHINE_CLS.search(text, before[1], hit.start) or _AFTER_IS_NODE.match(text, after[1])):
        return out + [Finding("nodes", before[0], before[1], hit.start), Finding("count", after[0], hit.start, after[1])]
    # "8 H100 nodes" are 8 machines; "8x H100 node" is 8 devices; "a single M3 machine" is one Mac
    # "a dual EPYC 9654 server": a CPU's "dual" counts sockets in one machine, not machines
    sockets = hardware_class(hit.id) == "cpu" and before and _DUAL.match(text, before[1])
    if before and not before[2] and not machine and not sockets and _AFTER_IS_NODE.match(text, hit.end):
        out.append(Finding("nodes", before[0], before[1], _AFTER_IS_NODE.match(text, hit.end).end()))
    elif before:
        out.append(Finding("nodes" if machine and before[0] > 1 else "count", before[0], before[1], hit.end))
        if not machine:
            out += _machines_before(text, before[1], hit.end)
    elif after and after[2] and not machine:   # "L40 3 台": machines of a card, counted elsewhere ("每台 8 張")
        out.append(Finding("nodes", after[0], hit.start, after[1]))
    elif after:
        out.append(Finding("nodes" if machine and after[0] > 1 else "count", after[0], hit.start, after[1]))
    return out


def _memory(text: str, hits: list[AliasHit], device: AliasHit | None) -> Finding | None:
    """Per-device memory stated next to the device ("M3 Ultra 512GB") or as VRAM/RAM."""
    spans = [(h.start, h.end) for h in hits]
    for m in _MEMORY.finditer(text):
        if overlaps(m.span(), spans) or _TOTAL.search(text[m.end():m.end() + 12]):
            continue
        near = device is not None and (m.start() >= device.end and _MEM_GLUE.match(text[device.end:m.start()])
                                       or m.end() <= device.start and not text[m.end():device.start].strip())
        unit = m.group("unit").upper()
        if not near and (not m.group("word") or (unit in ("T", "G") and m.group("word").startswith("版"))):
            continue
        gb = float(m.group("num")) * (1024 if unit.startswith("T") else 1)
        end = m.end() if m.group("word") else m.end("unit")
        return Finding("memory_gb", gb, m.start(), end)
    return None


# "Does exllamav2 use NVLink at all?", "NVLink 有幫助嗎？": a link asked about is not a link stated.
_ASKED_BEFORE = re.compile(r"(?:^|[.?!。？！;；,，]\s*)(?:does|do|did|can|could|will|would|is|are|should)\b"
                           r"(?:[^.?!。？！;；,，]*\b(?:use|using|support|supports|need|require|benefit\s+from|leverage|exploit))?\s*$", _F)
_OR = re.compile(r"\s*(?:,\s*)?(?:or|vs\.?|versus|還是|或是?|或者|抑或|/)\s*", _F)
_ASKED_AFTER = re.compile(r"[^.。;；]{0,30}?(?:嗎|吗|是否|有沒有用|有用嗎)", _F)


def _asked_about(text: str, m: re.Match) -> bool:
    head = text[max(0, m.start() - 60):m.start()]
    return bool(_ASKED_BEFORE.search(head) and re.match(r"[^.?!。？！]*\?", text[m.end():])) or bool(
        re.search(r"(?:支援|支持|需要|會用|用到)\s*$", head) and _ASKED_AFTER.match(text, m.end()))


_LINK_BEFORE_DEVICE = re.compile(r"\s*(?:的)?\s*$")
_LINK_AFTER_DEVICE = re.compile(r"^\s*(?:with|w/|over|via|[(（]|有|帶|配|搭)?\s*$", _F)


def _of_another(text: str, m: re.Match, others: list[tuple[int, int]]) -> bool:
    """The link word belongs to another device named beside it ("8 張 NVLink 的 A800 SXM", "A800 SXM with NVLink"),
    not to the user's own (r6-zh-04: the H800 PCIe cards were called NVLink)."""
    return any((0 <= a - m.end() <= 4 and _LINK_BEFORE_DEVICE.match(text[m.end():a]))
               or (0 <= m.start() - b <= 8 and _LINK_AFTER_DEVICE.match(text[b:m.start()])) for a, b in others)


def _interconnect(text: str, hit_spans: list[tuple[int, int]], count: int | None,
                  others: list[tuple[int, int]] = ()) -> Finding | None:
    """The stated link; a negated NVLink between several devices means PCIe; a link said of another device
    named beside it (`others`) is not the user's."""
    found: list[tuple[int, Finding]] = []
    links = sorted((m.start(), m.end(), value) for value, rx in _INTERCONNECT for m in rx.finditer(text))
    # "InfiniBand or NVLink?", "NVLink 還是 PCIe": links offered as alternatives are not the link stated
    offered = [(a, b) for (a, b, v), (c, d, w) in zip(links, links[1:]) if v != w and _OR.fullmatch(text[b:c])] + \
              [(c, d) for (a, b, v), (c, d, w) in zip(links, links[1:]) if v != w and _OR.fullmatch(text[b:c])]
    for value, rx in _INTERCONNECT:
        for m in rx.finditer(text):
            if overlaps(m.span(), hit_spans) or _asked_about(text, m) or m.span() in offered or _of_another(text, m, others):
                continue
            if negated(text, m.start(), m.end(), post=True):
                if value == "nvlink" and count != 1:
                    cue = negation_cue(text, m.start())
                    found.append((1, Finding("interconnect", "pcie", m.start() if cue is None else cue, m.end())))
                continue
            found.append((0, Finding("interconnect", value, m.start(), m.end())))
    if not found:
        return None
    # "NVLink inside each node, InfiniBand between nodes": the network is what the profile lacks (the link
    # inside a node follows from the device: rules.facts keeps the board's own link there)
    between = _BETWEEN_NODES.search(text)
    return min(found, key=lambda f: (f[0], not (between and f[1].value in _NETWORKS), f[1].start))[1]


_NETWORKS = ("infiniband", "ethernet")
_BETWEEN_NODES = re.compile(r"\b(?:between|across|among)\s+(?:the\s+|our\s+|two\s+|2\s+)?(?:nodes|servers|machines|hosts|boxes)\b"
                            r"|\binter[\s-]?node\b|節點(?:之)?間|跨(?:節點|機器?|伺服器)|(?:機器|主機|伺服器|台)之間"
                            # the other link is said to be inside each node: the network is the one between
                            r"|\b(?:in|inside|within)\s+(?:each|every|the)\s+(?:node|server|machine|box)\b|\bbetween\s+them\b"
                            r"|每台(?:機器|伺服器|節點)?內|節點內", _F)


# Devices per machine said outright: "每台 8 張", "各 8 張", "8 per node", "8 GPUs each node"
_PER_MACHINE = re.compile(
    rf"(?:每(?:台|個節點|節點|部)|\bper\s+(?:node|server|machine|box|host))\s*(?:有|放|裝|插|配|with)?\s*(?P<a>{COUNT})(?!\s*(?:台|nodes?|servers?|machines?))"
    rf"|(?P<b>{COUNT})\s*(?:張|片|卡|GPUs?|cards?|[x×])?\s*(?:\bper\b|\beach\b|/)\s*(?:node|server|machine|box|host)\b"
    rf"|各\s*(?:有|裝|插)?\s*(?P<c>{COUNT})\s*(?:張|片|卡)", _F)


_TOTAL_BEFORE = re.compile(r"(?:總共|一共|合計|共計|共|\btotal(?:\s+of)?|\bcombined|\ball\s+told)\s*$", _F)
_TOTAL_AFTER = re.compile(r"\s*(?:(?:GPUs?|cards?|devices?|NPUs?|張|卡|片)\s*)?(?:in\s+total|total|combined|altogether|in\s+all)\b", _F)


_SIZE_SPEC = re.compile(r"^(?:s\b)?\s*\d+(?:\.\d+)?\s*(?:GB|G)\b", re.I)   # "10x P40 24GB in 3 servers": the card's size


def _split_words(text: str, count: Finding, nodes: Finding) -> str:
    """The words between the device total and its machines ("10x P40 24GB | in 3 servers"). When the total is
    restated right before the machines ("ten P40s ... 10x Tesla P40 24GB in 3 servers"), from the restatement."""
    start = count.end
    again = [m for m in re.finditer(rf"(?<![\d.,]){int(count.value)}\s*(?:[x×]|張|cards?\b|GPUs?\b)", text[count.end:nodes.start], re.I)]
    if again:
        tail = count.end + again[-1].end()
        ends = [tail + m.end() for m in re.finditer(r"[\w-]+(?=\s)", text[tail:min(nodes.start, tail + 32)])]
        start = next((e for e in ends if _SPLIT.match(_SIZE_SPEC.sub("", text[e:nodes.end], count=1))), start)
    return _SIZE_SPEC.sub("", text[start:nodes.end], count=1)


def _per_node(text: str, out: list[Finding]) -> None:
    """A total split over nodes ("16 張 A100，分兩個節點", "16x H100 (2 nodes)", "16 H100 on 2 servers",
    "16 張 H100（每台 8 張，共 2 台）") becomes devices per node, in place."""
    count = next((f for f in out if f.field == "count"), None)
    nodes = next((f for f in out if f.field == "nodes"), None)
    per = _PER_MACHINE.search(text, count.end) if count else None
    n = parse_int(per.group("a") or per.group("b") or per.group("c")) if per else None
    if count and n and 1 < n < count.value and count.value % n == 0 and (nodes is None or nodes.value * n == count.value):
        out[out.index(count)] = Finding("count", n, count.start, per.end())   # the total and the per-machine words
        if nodes is None:
            out.append(Finding("nodes", count.value // n, per.start(), per.end()))
        return
    # machines first, then the total they hold: "４個節點共 32 卡", "two H200 machines (16 GPUs in total)"
    if count and nodes and nodes.end <= count.start and count.value > nodes.value > 1 and count.value % nodes.value == 0 \
            and (_TOTAL_BEFORE.search(text, nodes.end, count.start) or _TOTAL_AFTER.match(text, count.end)):
        out[out.index(count)] = Finding("count", count.value // nodes.value, count.start, count.end)
        return
    between = _split_words(text, count, nodes) if count and nodes and nodes.start >= count.end else None
    if between is not None and _SPLIT.match(between) and not _EACH.match(text, nodes.end):
        if count.value % nodes.value == 0:
            out[out.index(count)] = Finding("count", count.value // nodes.value, count.start, count.end)
        elif count.value > nodes.value:
            # "10 P40s in 3 servers (4+4+2)": machines of unequal size; the profile holds equal machines, so
            # keep the total the user owns rather than multiply it by the machine count (30)
            out.remove(nodes)


def _node_count(m: re.Match) -> int | None:
    """The machine count a _NODES / _NODE_PHRASE match read ("an 8x H100 node" → 1)."""
    groups = m.re.groupindex
    if "one" in groups and m.group("one"):
        return 1
    return parse_int(next((m.group(g) for g in ("num", "num2", "num3", "num4", "num5", "num6", "num7", "num8", "num9") if g in groups and m.group(g)), ""))


def _outside(rx: re.Pattern, text: str, names: list[tuple[int, int]]):
    """Matches of `rx` that start outside every device name ("Xeon 6 servers" has no "6 servers")."""
    pos = 0
    while (m := rx.search(text, pos)) is not None:
        inside = next((e for s, e in names if s <= m.start() < e), None)
        if inside is None:
            yield m
            pos = m.end()
        else:
            pos = inside


def _number_span(m: re.Match) -> tuple[int, int]:
    """Where the machine count of a _NODES / _NODE_PHRASE match was written."""
    return next((m.span(g) for g in ("one", "num", "num2", "num3", "num4", "num5", "num6", "num7", "num9") if g in m.re.groupindex and m.group(g)),
                m.span())


# A form's count field: "Count: 4", "數量：4", "# of GPUs = 8".
_FORM_COUNT = re.compile(r"(?:\b(?:count|qty|quantity|number\s+of\s+(?:GPUs|cards|devices)|num[_\s]?gpus|#\s*(?:of\s+)?GPUs)"
                         r"|數量|張數|卡數|GPU\s*數量?)\s*[:：=]?\s*(?P<num>\d{1,4})\b(?!\s*(?:people|users|人|個人))", _F)
# Devices named by a launch command: "CUDA_VISIBLE_DEVICES=0,1,2,3" (four), "--tensor-parallel-size 4",
# "tp=8", "8-way tensor parallel" (times a pipeline size when one is given).
# "num_gpus 給 2", "--num-gpus 4", "--n-gpu 4": the engine is told how many cards to use
_NUM_GPUS = re.compile(r"(?:\bnum[_-]gpus|(?<![\w-])(?:--?)?n[_-]gpus?)\s*(?:[=:]|給|設(?:成|為)?|set\s+to|to|\s)\s*(?P<n>\d{1,3})\b", _F)   # not Ollama's num_gpu (layers)
_VISIBLE = re.compile(r"CUDA_VISIBLE_DEVICES\s*=\s*[\"']?(?P<ids>\d+(?:\s*,\s*\d+)*)", _F)
_TP = re.compile(r"(?:--?tensor[-_]parallel[-_]size|--?tp(?:[-_]size)?)(?:\s*=\s*|\s+)(?P<n>\d{1,3})\b|\bTP\s*=\s*(?P<n2>\d{1,3})\b"
                 r"|\b(?P<n3>\d{1,3})[\s-]way\s+tensor[\s-]parallel", _F)
_PP = re.compile(r"(?:--?pipeline[-_]parallel[-_]size|--?pp(?:[-_]size)?)(?:\s*=\s*|\s+)(?P<n>\d{1,3})\b|\bPP\s*=\s*(?P<n2>\d{1,3})\b", _F)


def _launch_count(text: str) -> list[Finding]:
    """The device count a launch command states, when the words state none."""
    m = _VISIBLE.search(text)
    if m:
        return [Finding("count", len(m.group("ids").split(",")), m.start(), m.end())]
    tp = _TP.search(text)
    if not tp:
        return []
    n = int(tp.group("n") or tp.group("n2") or tp.group("n3"))
    pp = _PP.search(text)
    n *= int(pp.group("n") or pp.group("n2")) if pp else 1
    start, end = (min(tp.start(), pp.start()), max(tp.end(), pp.end())) if pp else tp.span()
    return [Finding("count", n, start, end)] if 1 <= n <= 1024 else []


# Options joined by a word of comparison: "1x H100 vs 2x H200", "H100 or H200", "8x H100 cheaper than 4x H200",
# "一張 H100 還是兩張 H200", "H100 對比 H200". "and"/"和" joins parts of one setup, so it is not one.
_VERSUS = re.compile(r"^(?:s\b)?\s*(?:(?:with|over|on)\s+[\w-]+\s*)?(?:,\s*)?(?:vs\.?|versus|or|against|compared\s+(?:to|with)|(?:(?:is\s+)?(?:\w+\s+){0,2}?"
                     r"(?:better|cheaper|faster|slower|worse|pricier|more\s+\w+|less\s+\w+)\s+)?than|還是|或是?|或者|對比|相比|比起|比)\s*$", _F)


def _option(text: str, hit: AliasHit) -> tuple[dict, int, int]:
    """A hardware option: its id and stated count, with the span of its words."""
    before, after = _count_before(text, hit), _count_after(text, hit)
    count = before[0] if before else after[0] if after and not after[2] else None
    start = before[1] if before else hit.start
    end = after[1] if after and not before else hit.end
    return {"hardware": hit.id, "count": count}, start, end


def _compared(text: str, hits: list[AliasHit], device: AliasHit) -> Finding | None:
    """The other options in a comparison that includes the chosen device, as one finding."""
    options = sorted((_option(text, h) + (h,) for h in hits), key=lambda o: o[1])
    chain, out = [], []
    for prev, cur in zip(options, options[1:]):
        if _VERSUS.match(text[prev[2]:cur[1]]):
            chain += [o for o in (prev, cur) if o not in chain]
    if not any(o[3] is device for o in chain):
        return None
    own = next(o[0] for o in chain if o[3] is device)
    for opt, start, end, hit in chain:
        if hit is not device and opt != own and opt not in [o[0] for o in out] and not negated_adjacent(text, start):
            out.append((opt, start, end))
    if not out:
        return None
    return Finding("compared_hardware", [o[0] for o in out], out[0][1], out[-1][2])


# Replicas of a model, each on some devices: "2 x 2 replicas" (replicas x devices each), "2 replicas of 4 GPUs",
# "2 replicas with TP=4", "3 個副本，每個 2 張卡". The profile counts the devices in all of them.
_REPLICA = r"(?:replicas?|instances?|copies|副本|實例)"
_REPLICAS = re.compile(
    rf"(?P<a>{COUNT})\s*[x×*]\s*(?P<b>{COUNT})\s*(?:個\s*)?{_REPLICA}"
    rf"|(?P<r>{COUNT})\s*(?:個\s*)?{_REPLICA}\s*(?:[,，]\s*)?(?:of|with|on|x|×|at|每個|各|each\s+(?:on|with))?\s*"
    rf"(?:TP\s*=?\s*|tp[\s=]*)?(?P<n>{COUNT})\s*(?:張|卡|GPUs?\b|cards?\b|[x×](?=\s*[A-Za-z]))?(?:\s*each)?", _F)


def _replicas(text: str, out: list[Finding]) -> None:
    """The device count of replicas ("2 x 2 replicas" is four devices), in place: it replaces a count
    that is one replica's ("2 replicas of 4x H100") and fills a missing one."""
    m = _REPLICAS.search(text)
    if not m:
        return
    a, b = (m.group("a"), m.group("b")) if m.group("a") else (m.group("r"), m.group("n"))
    x, y = parse_int(a), parse_int(b)
    if not x or not y or not 1 <= x * y <= MAX_COUNT:
        return
    count = next((f for f in out if f.field == "count"), None)
    if count is None or (count.value == y and m.start() <= count.start < m.end()):
        out[:] = [f for f in out if f.field != "count"] + [Finding("count", x * y, m.start(), m.end())]
    elif count.value == x * y:   # "4x H100, 2 x 2 replicas": the replicas agree with the count, so their words are used
        out[out.index(count)] = Finding("count", count.value, min(count.start, m.start()), max(count.end, m.end()))


# "add a second identical 8-GPU server", "再加一台": one machine more than the ones stated (or the one implied)
_ONE_MORE = re.compile(rf"\b(?:add(?:s|ed|ing)?|buy(?:s|ing)?|get(?:ting)?|plus|with)\s+(?:a\s+)?(?:second|another|one\s+more)\s+"
                       rf"(?:identical\s+|same\s+|similar\s+)?(?:[\w-]+\s+){{0,2}}?{_NODE_WORD}(?![A-Za-z])|再(?:加|買|多|擴)\s*一\s*台", _F)


def _one_more(text: str, out: list[Finding]) -> None:
    """Nodes plus one for a machine added to the ones stated, in place."""
    m = _ONE_MORE.search(text)
    if not m or negated_adjacent(text, m.start()):
        return
    nodes = next((f for f in out if f.field == "nodes"), None)
    if nodes is not None and nodes.end > m.start():
        return   # the nodes were stated after it ("add another node: 3 nodes in all")
    n = (nodes.value if nodes else 1) + 1
    out[:] = [f for f in out if f.field != "nodes"] + [Finding("nodes", n, nodes.start if nodes else m.start(), m.end())]


# Two different devices in one machine: "an RTX 5090 plus an RTX 3090 Ti", "一張 RTX 5000 Ada 32G 加一張 V100"
_PLUS = re.compile(r"^(?:\s*\d{1,3}\s?(?:GB|G)\b)?\s*(?:,\s*)?(?:plus|\+|together\s+with|along\s+with|加(?:上)?|搭配?|配|and(?=\s+an?\s))\s*(?:an?\s+)?"
                   r"(?:(?:NVIDIA|GeForce|AMD|Radeon|Intel)\s+)?$", _F)   # "an RTX 3090 and an Intel Arc Pro B70"


_AND_AN = re.compile(r"\s*(?:,\s*)?and\s*", re.I)   # "an RTX 4090 and an RX 7900 XTX": the article went with the option


def _mixed(text: str, hits: list[AliasHit], device: AliasHit, out: list[Finding]) -> None:
    """The device count of a mixed pair (or more), in place: every device joined by "plus"/"加" counts."""
    options = sorted((_option(text, h) + (h,) for h in hits), key=lambda o: o[1])
    mine = next((i for i, o in enumerate(options) if o[3] is device), None)
    if mine is None:
        return
    group = [options[mine]]
    for prev, cur in zip(options[mine:], options[mine + 1:]):
        if cur[3].id == prev[3].id or "cpu" in (hardware_class(cur[3].id), hardware_class(prev[3].id)) \
                or not (_PLUS.match(text[prev[2]:cur[1]]) or _AND_AN.fullmatch(text, prev[2], cur[1])
                        and re.match(r"an?\s", text[cur[1]:cur[1] + 3], re.I)):   # "4 張 GPU 搭雙路 EPYC": the CPUs host the cards
            break
        group.append(cur)
    if len(group) < 2:
        return
    total = sum(o[0]["count"] or 1 for o in group)
    out[:] = [f for f in out if f.field != "count"] + [Finding("count", total, group[0][1], group[-1][2])]


# One card named as the user's own with no number, made singular by "卡是" / "顯卡是" ("卡是 A10（24Gb）") or, in a
# Chinese sentence, by its memory written right beside it ("4090 24G 用 vLLM", "T4（16G）上", "24G 的 4090"): one card.
# A device the user calls theirs in the singular ("my 3090", "my MacBook Pro M4 Max", "我的 4090", "我這張 4090") is one
# too. A bare name ("A100s", "H100 上跑", "on H100", "我們的 A100": Chinese marks no plural) says nothing of how many
# and is left to the interview (the settled convention: a device named with no sign of how many states no count).
_THIS_ONE = re.compile(r"\s*(?:的\s*)?(?:這|这|那)\s*(?:一\s*)?(?:台|張|张|片|塊|块)", _F)
_MY_ONE = re.compile(rf"(?:\bmy|\bour|我的|我這(?:張|台|片|塊))\s*(?:(?:{_STATE}|{_BRAND})[\s-]*)*$", _F)
_MINE = re.compile(rf"(?:(?:顯)?卡是\s*|GPU\s*是\s*|(?:一|單)台(?:機器|雲主機|主機|伺服器)?\s*(?:配|裝|插|搭載?)(?:有|了|著)?\s*)(?:(?:{_STATE}|{_BRAND})[\s-]*)*$", _F)
_MEM_BESIDE = re.compile(r"[\s-]*[(\[]?\s*\d{1,3}\s?(?:GB|G)(?![A-Za-z0-9/])(?!\s*(?:each|apiece|per|x\b|[x×*]))", re.I)
_CJK = re.compile(r"[\u4e00-\u9fff]")
_MEM_BEFORE = re.compile(r"(?<![\d.])\d{1,3}\s?(?:GB|G)\s*(?:的\s*)$", re.I)


# a device given as an example or asked about for others ("APUs like the AI Max+ 395", "Has anyone run SGLang on
# Strix Halo?"): not one the user has
_EXAMPLE_OF = re.compile(r"(?:\blike|\bsuch\s+as|\be\.g\.)\s+(?:the\s+|an?\s+)?$|(?:^|[.?!]\s*)(?:has|have|did|does)\s+any(?:one|body)\b[^.?!]*$", _F)


def _one_of_a_kind(device: AliasHit) -> bool:
    """A chip that comes one to a machine: an APU or integrated GPU (a consumer system-on-chip), or a laptop."""
    from rules import catalog
    hw = catalog.all_hardware()[device.id]
    return (hw.form_factor == "soc" and hw.hw_class == "consumer") or hw.form_factor == "laptop"


def _one_named(text: str, device: AliasHit) -> list[Finding]:
    if _one_of_a_kind(device) and not re.match(r"s\b", text[device.end:device.end + 2]) \
            and not _EXAMPLE_OF.search(text, max(0, device.start - 60), device.start):
        return [Finding("count", 1, device.start, device.end)]   # "Strix Halo (Ryzen AI Max+ 395)", "the Lunar Lake iGPU"
    if hardware_class(device.id) == "cpu" or re.search(r"\ds$", text[device.start:device.end]) \
            or re.match(r"s\b", text[device.end:device.end + 2]):
        return []
    mine = _MY_ONE.search(text, max(0, device.start - 40), device.start)
    if mine and mine.end() == device.start:
        return [Finding("count", 1, mine.start(), device.end)]
    this = _THIS_ONE.match(text, device.end)
    if this:   # "M3 Ultra 這台機器": a demonstrative with its measure word points at one
        return [Finding("count", 1, device.start, this.end())]
    if hardware_class(device.id) in ("apple", "edge"):
        return []
    mine = _MINE.search(text, max(0, device.start - 40), device.start)
    # English marks number on the noun ("a 4090", "4090s"), so a bare "RTX 4090 24GB" names a variant and commits to
    # no count; Chinese marks it only with a measure word, so a bare card with its memory in a Chinese sentence is one
    beside = _CJK.search(text) and (_MEM_BESIDE.match(text, device.end) or _MEM_BEFORE.search(text, max(0, device.start - 10), device.start))
    if (mine and mine.end() == device.start) or (beside and (beside.end() == device.start or beside.start() == device.end)):
        return [Finding("count", 1, device.start, device.end)]
    return []


# "cut from four H100s to two", "從 8 張 A100 減到 4 張": the count after the change is the setup now
_CUT_TO = re.compile(rf"(?:\bfrom|從)\s*(?P<a>{COUNT})\s*(?:張|片|x\s*|×\s*)?\s*(?P<dev>[^\s,;.，；。]+?)(?:s\b)?\s*"
                     rf"(?:(?:down\s+)?to|(?:減|降|砍|縮)(?:到|成|為)|改成)\s*(?P<b>{COUNT})(?!\w|\.\d)", _F)


def _cut_to(text: str, device: AliasHit | None, out: list[Finding]) -> None:
    m = _CUT_TO.search(text)
    if not device or not m or not (m.start("dev") <= device.start < m.end("dev") + 2):
        return
    n = parse_int(m.group("b"))
    if n and n <= 1024:
        out[:] = [f for f in out if f.field != "count"] + [Finding("count", n, m.start("b"), m.end("b"))]


# A Mac is a whole machine with one chip: "Mac Studio M2 Ultra", "一台 Mac Mini（M4 Pro）", "M4 Max 的 MacBook" name one
# device; "兩台 Mac Studio（M2 Ultra）", "two Mac Studios" are machines of one chip each. A plural with no number
# ("Mac Studios") says nothing of how many.
_MAC_WORD = re.compile(r"\b(?:Mac\s*Studio|MacBook(?:\s*(?:Pro|Air))?|Mac\s*mini|Mac\s*Pro|iMac|(?P<box>mini[\s-]?PC|NUC))(?P<pl>e?s)?\b|(?P<box2>迷你(?:主機|電腦|电脑))", _F)
_MAC_COUNT = re.compile(rf"(?:(?P<one>\ban?\b|\bone\b|\bsingle\b|單台|单台|一台|一部)|(?P<num>{COUNT})\s*(?:台|部|個|个)?)\s*"
                        r"(?:(?:頂配|顶配|二手|全新|new|used|brand[\s-]new|\d+\s?(?:GB|G|TB)\s*(?:的\s*)?)\s*)*$", _F)
_CLAUSE_END = re.compile(r"[.;!?。；！？]|\band\b|\bor\b|還是|或")


def _macs_counted(text: str, hit: AliasHit) -> bool:
    """An Apple chip whose Macs are counted before it: "兩台頂配 Mac Studio（M2 Ultra）"."""
    if hardware_class(hit.id) != "apple":
        return False
    word = next((m for m in _MAC_WORD.finditer(text, max(0, hit.start - 24), hit.start)
                 if not (m.group("box") or m.group("box2")) and not _CLAUSE_END.search(text[m.end():hit.start])), None)
    c = _MAC_COUNT.search(text, max(0, word.start() - 16), word.start()) if word else None
    return bool(c and (c.group("one") or c.group("num")))


def _mac_machines(text: str, device: AliasHit | None, out: list[Finding]) -> None:
    """count 1 (and the machines, when several) for a Mac named as a machine, in place."""
    fields = {f.field for f in out}
    if "count" in fields:
        return
    apple = device is not None and hardware_class(device.id) == "apple"
    if device and not apple:   # another single-chip box named right after its chip: "Ryzen AI Max+ 395 mini PC"
        box = _MAC_WORD.match(text, device.end + len(text[device.end:]) - len(text[device.end:].lstrip()))
        if box and (box.group("box") or box.group("box2")) and not box.group("pl") and hardware_class(device.id) != "cpu":
            out.append(Finding("count", 1, device.start, box.end()))
        return
    lo, hi = (max(0, device.start - 40), min(len(text), device.end + 24)) if device else (0, len(text))
    word = None
    for m in _MAC_WORD.finditer(text, lo, hi):
        if m.group("box") or m.group("box2"):
            continue   # only a Mac names the machine of an Apple chip
        gap = "" if not device else text[m.end():device.start] if m.end() <= device.start else text[device.end:m.start()]
        if not _CLAUSE_END.search(gap):
            word = m
            break
    if word is None:
        if device and "nodes" in fields:   # "兩台 192GB 的 M2 Ultra": one chip in each machine
            out.append(Finding("count", 1, device.start, device.end))
        return
    c = _MAC_COUNT.search(text, max(0, word.start() - 16), word.start())
    n = 1 if c and c.group("one") else parse_int(c.group("num")) if c and c.group("num") else None
    if n and n > 1 and "nodes" not in fields:
        out.append(Finding("nodes", n, c.start(), word.end()))
    elif word.group("pl") and not n and "nodes" not in fields:
        return
    start, end = (min(word.start(), device.start), max(word.end(), device.end)) if device else word.span()
    if c and n == 1:
        start = min(start, c.start())
    out.append(Finding("count", 1, start, end))


# The board form written in brackets after the name ("A100 80GB（PCIe 版）", "H100 (SXM5)"): the same variant as
# "A100 80GB PCIe", so the bracketed word is part of the device's name (and not the link between cards).
_VARIANT = re.compile(r"\s*[(\[（]\s*(?P<ff>PCIe|SXM\d?|NVL|OAM)\s*(?:版|version|variant|form\s+factor)?\s*[)\]）]", _F)


def _variant(text: str, hit: AliasHit) -> AliasHit:
    v = _VARIANT.match(text, hit.end)
    if not v:
        return hit
    from rules import catalog
    ident = catalog.resolve_hardware(f"{text[hit.start:hit.end]} {v.group('ff')}")
    # the same id ("H100 (SXM5) x8"): the bracket is still part of the name, so a count written after it is read
    return AliasHit(ident, hit.start, v.end(), hit.family) if ident else hit


def find(text: str) -> list[Finding]:
    """All hardware findings in `text` (already normalised to half-width)."""
    hits = [_variant(text, _plural_of(text, h)) for h in hardware_index().find(text)
            if re.search(r"\d", text[h.start:h.end]) or not _ENGINE_PREFIX.search(text, max(0, h.start - 12), h.start)]
    device = _pick(text, hits)
    out = _device(text, device) if device else []
    compared = _compared(text, hits, device) if device and len(hits) > 1 else None
    if compared:
        out.append(compared)
    elif device and len(hits) > 1:
        _mixed(text, hits, device, out)
    fields = {f.field for f in out}
    taken = [(f.start, f.end) for f in out] + [(h.start, h.end) for h in hits]
    hit_spans = names = [(h.start, h.end) for h in hits]
    if "nodes" not in fields and _NODE_GATE.search(text):
        for m in [*_outside(_NODE_PHRASE, text, names)][:1] + [*_outside(_NODES, text, names)]:
            n = _node_count(m)
            # a number inside a product name is not a machine count ("Xeon 6 server")
            if n and n <= 1024 and not negated_adjacent(text, m.start()) and not overlaps(_number_span(m), hit_spans) \
                    and not product_number(text, _number_span(m)[0]):   # "Atlas 800 servers": a model, not 800 machines
                out.append(Finding("nodes", n, m.start(), m.end()))
                break
    gpus = _NUM_GPUS.search(text) if "count" not in fields else None
    if gpus:   # the engine told how many cards to use beats a symptom ("num_gpus 給 2 … 只有一張卡在用")
        out.append(Finding("count", int(gpus.group("n")), gpus.start(), gpus.end()))
    elif "count" not in fields and _COUNT_GATE.search(text) and not (device and hardware_class(device.id) == "cpu"):
        for m in _GENERIC_COUNT.finditer(text):
            n = 2 if m.group("two") else 1 if m.group("one") else parse_int(m.group("num") or m.group("num2") or m.group("num3"))
            if n and n <= 1024 and not overlaps(m.span(), taken) and not negated_adjacent(text, m.start()) \
                    and not _PER_HOUR.match(text, m.end()):
                out.append(Finding("count", n, m.start(), m.end()))
                break
    if not any(f.field == "count" for f in out):
        form = _FORM_COUNT.search(text)
        out += [Finding("count", int(form.group("num")), form.start(), form.end())] if form and device else _launch_count(text)
    if device and not any(f.field in ("count", "nodes") for f in out):
        out += _one_named(text, device)
    _mac_machines(text, device, out)
    _cut_to(text, device, out)
    _per_node(text, out)
    _replicas(text, out)
    _one_more(text, out)
    mem = _memory(text, hits, device)
    if mem:
        out.append(mem)
    count = next((f.value for f in out if f.field == "count"), None)
    others = [(h.start, h.end) for h in hits if device and h.id != device.id]
    link = _interconnect(text, [(h.start, h.end) for h in hits], count, others)
    if link:
        out.append(link)
    return out

