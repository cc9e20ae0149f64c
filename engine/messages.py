"""What the engine says, in English and Chinese.

The engine keeps its words as data so a caller can show them in either
language: a :class:`Msg` is a code of :data:`MESSAGES` with its parameters,
a :class:`Twin` is a text written in both languages (a misconception label).
Both render with ``.text(lang)`` (``"en"`` or ``"zh"``); ``str()`` is the
English.  Parameters that are themselves a Msg or a Twin render in the same
language.

With :mod:`engine.langs` this module is where languages are told apart:
every text the engine, the bank and the app show in two languages is a
Twin, a Msg, or a pair read with :func:`pick`; nothing else tests
``lang == "zh"``.  English is the language a text falls back to.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.records import frozen

from .langs import EN, LANGS, ZH, other_lang, pick  # noqa: F401 (re-exported: the text table's door)
from .units import KIND_NAMES

# code -> (English, Chinese); str.format templates with the same fields.
MESSAGES: dict[str, tuple[str, str]] = {
    # ---------------------------------------------------------------- reading a typed answer
    "empty": ("the answer is empty", "答案为空"),
    "not_text": ("the answer is not text", "答案不是文本"),
    "too_long": ("too long to be an answer ({n} characters; at most {most})",
                 "太长了，不像一个答案（{n} 个字符，最多 {most} 个）"),
    "too_long_short": ("too long to be an answer", "太长了，不像一个答案"),
    "too_long_list": ("too long to be a list ({n} characters; at most {most})",
                      "太长了，不像一个列表（{n} 个字符，最多 {most} 个）"),
    "too_many_units": ("{n} units in one answer (at most {most}): write the result, or a shorter calculation",
                       "一个答案里有 {n} 个单位（最多 {most} 个）：请直接写结果，或写更短的算式"),
    "not_finite_typed": ("not a finite number (nan or infinity)", "不是有限数（nan 或无穷大）"),
    "not_finite": ("not a finite number", "不是有限数"),
    "no_number": ("the answer has no number", "答案里没有数字"),
    "number_missing": ("a number is missing before the unit {word!r}", "单位“{word}”前面缺少数字"),
    "unit_in_middle": ("a unit follows its number: {word!r} follows none",
                       "单位要紧跟在数字后面：“{word}”前面没有数字"),
    "wrong_dims": ("{typed} is {dims}, the question asks for {asked}", "{typed} 的量纲是 {dims}，但题目问的是{asked}"),
    "ambiguous": ("{typed} reads two ways: {one} or {two}; write the unit", "“{typed}”有两种读法：{one}，或 {two}；请写上单位"),
    "unknown_unit_case": ("unknown unit {word!r} (units are case-sensitive: {readings})",
                          "未知单位“{word}”（单位区分大小写：{readings}）"),
    "unit_reads_as": ("{symbol} is {what}", "{symbol} 表示{what}"),
    "unknown_word": ("unknown unit or word {word!r}", "未知的单位或词“{word}”"),
    "wrong_kind": ("{symbol} is {kind}, not {asked}", "{symbol} 是{kind}，但题目问的是{asked}"),
    "so_far": ("{reason} (understood so far: {so_far})", "{reason}（已识别：{so_far}）"),
    "units.converted_twice": ("{literal} converts to {unit} by hand, and the units you wrote already convert: leave "
                              "out {literal}, or write the numbers without units",
                              "{literal} 是手工换算成 {unit} 的系数，而你写的单位已经完成了这个换算：去掉 {literal}，"
                              "或者数字都不带单位"),
    "so_far_unit": ("unit {symbol}", "单位 {symbol}"),
    "list_expected": ("expected a list of values separated by commas, such as 10ms,12ms,8ms",
                      "应为用逗号分隔的一组数值，例如 10ms,12ms,8ms"),
    "list_item": ("item {i} ({item!r}): {reason}", "第 {i} 项（“{item}”）：{reason}"),
    "choice_expected": ("expected one of: {choices}", "应为以下之一：{choices}"),
    "bits": ("bits", "比特数"),
    "bytes": ("bytes", "字节数"),
    "bytes_per_s": ("bytes per second", "每秒字节数"),
    # ---------------------------------------------------------------- notes on how it was read
    "note.suffix": ("{symbol} read as ×{factor}", "{symbol} 读作 ×{factor}"),
    "note.suffix_number": ("{typed} read as {number}×{factor}", "{typed} 读作 {number}×{factor}"),
    "note.suffix_base": ("{typed} read as {number}×{factor} {unit}: a suffix without a unit multiplies the base unit",
                         "{typed} 读作 {number}×{factor} {unit}：不带单位的后缀乘的是基本单位"),
    "note.flop_implied": ("FLOP read as implied by a plain factor (6Φ is FLOP per token)",
                          "纯数因子按 FLOP 读取（6Φ 即每 token 的 FLOP 数）"),
    "note.default_unit": ("read in {unit}, the unit the question asks for", "按题目要求的单位 {unit} 读取"),
    "note.bits": ("{symbol}: lower-case b read as bits (B is bytes)",
                  "{symbol}：小写 b 按比特读取，大写 B 才是字节"),
    "note.flops_count": ("{symbol}: read {flops} as a FLOP count", "{symbol}：把 {flops} 当作 FLOP 总数读取"),
    "note.flops_rate": ("{symbol}: read FLOPs as FLOP/s", "{symbol}：把 FLOPs 当作 FLOP/s 读取"),
    "note.fraction": ("read as a fraction, not a percentage", "按小数读取，不是百分数"),
    "note.percentage": ("read as a percentage", "按百分数读取"),
    # numbers as people write them (engine.numerals) and the two readings of B
    "note.multiplier": ("{typed} read as {value}", "{typed} 读作 {value}"),
    "note.count_multiplier": ("{typed} read as {value} (a count)", "{typed} 读作 {value}（个数）"),
    "note.name": ("{name} read as a name, not a unit", "{name} 是型号名，不是单位"),
    "note.billion": ("{typed} = {value} (billion)", "{typed} = {value}（十亿）"),
    "note.bytes_b": ("{typed} = bytes", "{typed} = 字节"),
    "count_noun": ("the question counts {asked}, not {typed}: write {number} or {written}",
                   "题目数的是{asked}，不是{typed}：写成 {number} 或 {written}"),
    "multiplier_alone": ("{word!r} multiplies the number right before it: write 2.6e11 or 260B",
                         "“{word}”要紧跟在数字后面：写成 2.6e11 或 260B"),
    "multiplier_alone_unit": ("{word!r} multiplies the number right before it: write 2.6e11",
                              "“{word}”要紧跟在数字后面：写成 2.6e11 或 2600亿"),
    "understood_notes": ("= {quantity}  ({notes})", "= {quantity}（{notes}）"),
    # ---------------------------------------------------------------- the safe expression language
    "expr.nested": ("too deeply nested (more than {most} levels of parentheses)", "嵌套太深（括号超过 {most} 层）"),
    "expr.parentheses": ("the parentheses do not match", "括号不配对"),
    "expr.decimal": ("only decimal numbers can be read (no 0x, 0o or 0b)", "只能识别十进制数（不支持 0x、0o、0b）"),
    "expr.syntax": ("can't read {text!r} as a number or a calculation", "无法把“{text}”读成一个数或一个算式"),
    "expr.hash": ("'#' is not part of an answer (nothing is read as a comment): write only the answer",
                  "“#”不能出现在答案里（不会当作注释忽略）：只写答案"),
    "expr.stray": ("a stray {char!r}: only numbers, units and + - * / ^ ( ) can be read",
                   "多了一个“{char}”：只能识别数字、单位和 + - * / ^ ( )"),
    "expr.two_values": ("two values, {one!r} and {two!r}: which one is your answer?",
                        "有两个数值：“{one}”和“{two}”，哪一个是你的答案？"),
    "expr.times_before_bracket": ("{before!r} right before '(': write × between them, e.g. 2 × (3 + 4)",
                                  "“{before}”后面紧跟着“(”：请在中间写 ×，例如 2 × (3 + 4)"),
    "expr.spaced_digits": ("a space inside a number ({typed!r}): write 1000 or 1,000",
                           "数字中间有空格（“{typed}”）：请写 1000 或 1,000"),
    "expr.dangling": ("{op!r} has nothing after it", "“{op}”后面缺少数值"),
    "per_gpu_not_asked": ("read as {quantity} {qualifier}, but this question does not ask for a per-GPU figure: "
                          "write the answer without {qualifier!r}",
                          "读作 {quantity}（{qualifier}），但这道题问的不是每卡的量：请去掉“{qualifier}”再作答"),
    "note.per_gpu": ("read as {quantity} per GPU", "按每卡 {quantity} 读取"),
    "bare_scale": ("add a unit: {typed} {unit} is {shown}", "请加上单位：{typed} {unit} 即 {shown}"),
    "expr.complicated": ("too complicated to read", "太复杂，无法识别"),
    "expr.not_a_number": ("{value!r} is not a number", "“{value}”不是数字"),
    "expr.number_too_large": ("a number is too large", "有个数字太大"),
    "expr.number_too_small": ("{text} is too small: it would be read as 0",
                              "{text} 太小：会被当成 0"),
    "expr.unknown_word": ("unknown word {name!r}: expected a number", "未知的词“{name}”：这里应为数字"),
    "expr.unknown_name": ("unknown name {name!r} (known: {known})", "未知的名称“{name}”（可用：{known}）"),
    "expr.keywords": ("keyword arguments are not allowed", "不允许使用关键字参数"),
    "expr.calls": ("brackets right after a name or a value: write × between them, e.g. 2 × (3 + 4)",
                   "括号紧跟在名字或数值后面：请在中间写 ×，例如 2 × (3 + 4)"),
    "expr.comma": ("a comma that is not a thousands separator: write 1,120 or 1120, and a decimal point as '.'",
                   "这个逗号不是千位分隔符：请写 1,120 或 1120，小数点用“.”"),
    "expr.not_allowed": ("{what} can't be used in an answer: only numbers and + - * / ^",
                         "答案里不能用{what}：只能用数字和 + - * / ^"),
    "expr.what.comparisons": ("comparisons", "比较运算"),
    "expr.what.logic": ("logic", "逻辑运算"),
    "expr.what.attributes": ("attributes", "属性访问"),
    "expr.what.indexing": ("indexing", "下标"),
    "expr.what.lists": ("lists", "列表"),
    "expr.what.that": ("that", "这种写法"),
    "expr.list_not_number": ("the expression is a list, not a number", "这个表达式是列表，不是数"),
    "expr.result_not_finite": ("the result is not a finite number", "结果不是有限数"),
    "expr.nan": ("the result is not a number (nan)", "结果不是数（nan）"),
    "expr.too_large": ("the number is too large to be an answer", "数值太大，不像一个答案"),
    "expr.no_value": ("no value for {name!r}", "“{name}”没有给值"),
    "expr.division_by_zero": ("division by zero", "除以零"),
    "expr.exponent": ("the exponent is too large", "指数太大"),
    "expr.negative_root": ("a fractional power of a negative number", "对负数取了分数次幂"),
    "expr.list_in_arithmetic": ("a list cannot be used in arithmetic", "列表不能参与算术运算"),
    "expr.needs_value": ("{fn}() needs a value", "{fn}() 需要一个值"),
    "expr.one_value": ("{fn}() takes one value", "{fn}() 只接受一个值"),
    "expr.ln_domain": ("ln() takes a positive number", "ln() 只接受正数"),
    "expr.unreadable": ("unreadable expression", "无法识别的表达式"),
    "expr.add_dims": ("{left} and {right} cannot be added or subtracted", "{left} 和 {right} 量纲不同，不能相加减"),
    "expr.exponent_unit": ("an exponent must be a plain number, without a unit", "指数必须是不带单位的纯数"),
    "expr.odd_root": ("the root of {dims} has no whole unit: under a square root every unit needs an even power "
                      "(√(s·h) is s)", "{dims} 开方后单位不是整数次幂：平方根下每个单位的次数都须是偶数（√(s·h) 是 s）"),
    "expr.unit_power": ("a unit can be raised only to a whole power up to {most}",
                        "带单位的量只能取不超过 {most} 的整数次幂"),
    "dim.plain": ("a plain number", "纯数"),
    "expr.no_symbolic": ("{fn}() has no symbolic form", "{fn}() 没有符号形式"),
    # ---------------------------------------------------------------- the catalogue (drill calc)
    "formula.unknown": ("unknown formula {name!r} ({hint}see `drill calc --list`)",
                        "没有名为“{name}”的公式（{hint}见 `drill calc --list`）"),
    "formula.did_you_mean": ("did you mean {names}? ", "是不是 {names}？"),
    "formula.missing_one": ("{formula}: missing input {names} (needs {inputs})",
                            "{formula}：缺少输入 {names}（需要 {inputs}）"),
    "formula.missing_many": ("{formula}: missing inputs {names} (needs {inputs})",
                             "{formula}：缺少输入 {names}（需要 {inputs}）"),
    "formula.unknown_input": ("{formula}: unknown input {name!r} (inputs: {inputs})",
                              "{formula}：没有名为“{name}”的输入（输入有：{inputs}）"),
    "formula.in": ("{formula}: {reason}", "{formula}：{reason}"),
    "formula.part": ("{formula}: part {part}: {reason}", "{formula}：中间量 {part}：{reason}"),
    "formula.input": ("{name}={typed}: {reason}", "{name}={typed}：{reason}"),
    "formula.negative": ("{name} cannot be negative", "{name} 不能为负数"),
    "formula.below": ("{name} must be at least {low}", "{name} 不能小于 {low}"),
    "formula.above": ("{name} must be at most {high}", "{name} 不能大于 {high}"),
    "formula.choices": ("{name} is one of: {choices}", "{name} 只能是以下之一：{choices}"),
    "formula.at_default": ("{symbol} = {value}{words} (default)", "{symbol} = {value}{words}（默认）"),
    "formula.not_default": ("{symbol} = {value}{words} (default: {default})", "{symbol} = {value}{words}（默认：{default}）"),
    "note.default": ("not given: the default {value} is used", "未给出：使用默认值 {value}"),
    "note.input": ("{name}: {note}", "{name}：{note}"),
    "note.bare_base": ("a bare number is read in {unit}", "不带单位的数按 {unit} 读取"),
    "note.dtype_bytes": ("{dtype} = {size} B per element", "{dtype} = 每个元素 {size} B"),
    "note.dtype_bits": ("{dtype} = {size} bits", "{dtype} = {size} 比特"),
    # ---------------------------------------------------------------- proving a symbolic answer (engine.symbolic)
    "symbolic.degree": ("too complex to check: of degree {degree} once expanded (at most {most}); "
                        "simplify it to the formula you mean",
                        "太复杂，无法核对：展开后次数为 {degree}（最多 {most}）；请化简成你想写的公式"),
    "symbolic.terms": ("too complex to check: {terms} terms once expanded (at most {most}); "
                       "simplify it to the formula you mean",
                       "太复杂，无法核对：展开后有 {terms} 项（最多 {most} 项）；请化简成你想写的公式"),
    "symbolic.timeout": ("checking it symbolically took longer than {seconds} s; "
                         "simplify it and try again",
                         "符号核对超过 {seconds} 秒；请化简后再试"),
    "symbolic.memory": ("checking it symbolically needed more than {most} of memory; "
                        "simplify it and try again",
                        "符号核对所需内存超过 {most}；请化简后再试"),
    "symbolic.failed": ("the symbolic check could not run; try again",
                        "符号核对无法运行，请重试"),
    "symbolic.stopped": ("the symbolic check was stopped", "符号核对已被中止"),
    # ---------------------------------------------------------------- verdicts
    "verdict.unreadable": ("Can't read this answer: {reason}", "无法识别这个答案：{reason}"),
    "verdict.not_graded": ("Not graded: {reason}", "未评分：{reason}"),
    "verdict.correct": ("Correct.", "正确。"),
    "verdict.correct_within": ("Correct (within {tol}).", "正确（误差在 {tol} 以内）。"),
    "verdict.close": ("Close: within {close}, but correct needs {tol}.",
                      "接近：误差在 {close} 以内，但要判为正确需在 {tol} 以内。"),
    "verdict.close_integer": ("Close: within {close}, but correct needs the exact whole number.",
                              "接近：误差在 {close} 以内，但要判为正确须是精确的整数。"),
    "verdict.wrong_by": ("Wrong: more than {close} off.", "错误：偏差超过 {close}。"),
    "verdict.wrong_miss": ("Wrong: a known mistake, not a near miss.", "错误：这是一个典型错误，不算接近。"),
    "verdict.number": ("{headline} You: {given}; expected: {expected}{error}.{miss}",
                       "{headline}你的答案：{given}；正确答案：{expected}{error}。{miss}"),
    "verdict.error": (" ({error})", "（{error}）"),
    # how far off a graded number is beyond a factor of 2 (within it, the signed percentage)
    "error.high": ("about {n}× too high{slip}", "偏高约 {n} 倍{slip}"),
    "error.low": ("about {n}× too low{slip}", "偏低约 {n} 倍{slip}"),
    "error.slip": (": a {asked}/{other} slip?", "：是不是把 {asked} 和 {other} 弄混了？"),
    "error.slip_prefix": (": a unit prefix slip?", "：是不是单位前缀错了？"),
    "verdict.miss": (" Looks like you {label}.", "看起来你{label}。"),
    "verdict.approx": (" Exact is {formula} = {exact}; {given} is {approx}, the approximation that holds within {tol} "
                       "here (you {label}).",
                       "精确值是 {formula} = {exact}；{given} 是近似式 {approx}，在这里误差落在 {tol} 以内（你{label}）。"),
    "verdict.by_convention": ("Accepted: right (within {tol}) by another published convention.",
                              "认可：按另一种公开的约定是对的（误差在 {tol} 以内）。"),
    "verdict.convention": (" That is {named}; this problem counts {own}: {own_value}.",
                           "这是{named}；本题按{own}计：{own_value}。"),
    "verdict.convention_also": (" That is also {named}; this problem counts {own}: {own_value}.",
                                "这也是{named}；本题按{own}计：{own_value}。"),
    "verdict.wrong": ("Wrong. You: {given}; expected: {expected}.", "错误。你的答案：{given}；正确答案：{expected}。"),
    "band.number": ("±{tol} % correct, ±{close} % close; error = |x − e| / max(|x|, |e|)",
                    "±{tol} % 以内为正确，±{close} % 以内为接近；误差 = |x − e| / max(|x|, |e|)"),
    "band.integer": ("exact whole number correct, ±{close} % close", "精确整数为正确，±{close} % 以内为接近"),
    "band.choice": ("exact choice", "须选对选项"),
    "band.expression": ("symbolically equivalent", "须与正确答案符号等价"),
    # ---------------------------------------------------------------- what an answer takes (engine.kinds)
    "hint.choice": ("Choices: {keys}", "选项：{keys}"),
    "hint.expression": ("Answer with an expression", "答案为表达式"),
    "hint.layout": ("Answer with a layout: tp=8 pp=2 dp=4, TP8 PP2 DP4 or 8,2,4",
                    "答案为并行布局，例如 tp=8 pp=2 dp=4、TP8 PP2 DP4 或 8,2,4"),
    "hint.integer": ("Answer with a whole number", "答案为整数"),
    "hint.plain": ("Answer with a plain number", "答案为纯数字"),
    "hint.unit": ("Answer in: {unit}", "答案单位：{unit}"),
    "placeholder.choice": ("type one of: {choices}", "输入其中之一：{choices}"),
    "placeholder.expression": ("a formula, e.g. 2*Phi + 14*Phi/N", "一个公式，例如 2*Phi + 14*Phi/N"),
    "placeholder.layout": ("a layout, e.g. tp=8 pp=2 dp=4 or 8,2,4", "一个并行布局，例如 tp=8 pp=2 dp=4 或 8,2,4"),
    # ---------------------------------------------------------------- unit slips (engine.grading)
    "miss.gb_for_gib": ("gave the {dec} figure where {unit} was asked (1 {unit} = {ratio} {dec})",
                        "给出了 {dec} 的数值，而题目要的是 {unit}（1 {unit} = {ratio} {dec}）"),
    "miss.gib_for_gb": ("gave a GiB figure where GB was asked (1 GiB = 1.074 GB; GB = 1e9 B)",
                        "给出了 GiB 的数值，而题目要的是 GB（1 GiB = 1.074 GB；GB = 1e9 B）"),
    "miss.bits_for_bytes": ("gave bits instead of bytes (× 8)", "给出的是比特数而不是字节数（× 8）"),
    "miss.bytes_for_bits": ("divided by 8 somewhere (bits and bytes mixed up)", "在某处多除了 8（把比特和字节搞混了）"),
    "miss.scale_unit": ("wrote {typed}: that is the figure in {unit}; in {asked} it is {right}",
                        "写的是 {typed}：那是以 {unit} 为单位的数值；换算成 {asked} 是 {right}"),
    "miss.scale": ("are exactly {n} times too {way}: a unit prefix slipped; in {asked} it is {right}",
                   "恰好{way}了 {n} 倍：单位前缀错了；换算成 {asked} 是 {right}"),
    "miss.lowercase_b": ("wrote a lower-case b (bits) where B (bytes) was meant",
                         "把表示字节的 B 写成了小写 b（比特）"),
    # ---------------------------------------------------------------- save files (engine.storage)
    "save.write_failed": ("cannot write {path}: {cause}", "无法写入 {path}：{cause}"),
    "save.read_failed": ("cannot read {path}: {cause}", "无法读取 {path}：{cause}"),
    "save.cause.read_denied": ("permission denied (give your user read permission: chmod u+rwx on a folder, "
                               "u+rw on a file)", "没有读取权限（请给当前用户读取权限：文件夹 chmod u+rwx，文件 chmod u+rw）"),
    "save.journal_healed": ("the journal {path} was damaged ({reason}); it has been written again from its log "
                            "file, which is whole: no review was lost.{kept} Run drill doctor to check every file",
                            "日志副本 {path} 已损坏（{reason}）；已根据完好的记录文件重新写入，没有丢失任何复习记录。{kept}"
                            "运行 drill doctor 可检查所有文件"),
    "save.journal_damaged": ("the journal {path} is damaged ({reason}); its log file is whole, so no review is "
                             "lost. Run drill doctor --repair to write it again",
                             "日志副本 {path} 已损坏（{reason}）；对应的记录文件完好，没有丢失复习记录。"
                             "运行 drill doctor --repair 重新写入它"),
    "save.mocks_journal_healed": ("the journal {path} was damaged ({reason}); it has been written again from the "
                                  "mocks file, which is whole: no mock interview was lost.{kept} Run drill doctor to "
                                  "check every file", "日志副本 {path} 已损坏（{reason}）；已根据完好的模拟面试文件重新"
                                  "写入，没有丢失任何模拟面试结果。{kept}运行 drill doctor 可检查所有文件"),
    "save.mocks_journal_damaged": ("the journal {path} is damaged ({reason}); the mocks file is whole, so no mock "
                                   "interview is lost. Run drill doctor --repair to write it again",
                                   "日志副本 {path} 已损坏（{reason}）；模拟面试文件完好，没有丢失模拟面试结果。"
                                   "运行 drill doctor --repair 重新写入它"),
    # ---------------------------------------------------------------- drill doctor (engine.storage.doctor)
    "doctor.damaged": ("{path} is damaged: {reason}", "{path} 已损坏：{reason}"),
    "doctor.backup": ("{path} (a backup: an earlier version of its file) is damaged: {reason}; it is never used to "
                      "restore, and its file is not affected", "{path}（备份：该文件的较早版本）已损坏：{reason}；"
                      "它不会被用来恢复，对应的文件不受影响"),
    "doctor.backup_aside": ("moved aside as {path}, out of the backups", "已移到一旁，改名为 {path}，不再作为备份"),
    "doctor.unreadable": ("{path} cannot be read: {reason} (give your user permission: chmod u+rw)",
                          "{path} 无法读取：{reason}（请给当前用户权限：chmod u+rw）"),
    "doctor.newer": ("{path} was written by a newer infra-drill ({reason}): upgrade infra-drill; it is left as it is",
                     "{path} 由更新版本的 infra-drill 写入（{reason}）：请升级 infra-drill；它保持原样"),
    "doctor.journal": ("{path} (the second copy of its log file's reviews) is out of step: {reason}; its log file is "
                       "whole, so nothing is lost", "{path}（记录文件中复习记录的第二份副本）不一致：{reason}；"
                       "对应的记录文件完好，没有丢失任何内容"),
    "doctor.journal_mocks": ("{path} (the second copy of the mock-interview results) is out of step: {reason}; the "
                             "mocks file is whole, so nothing is lost", "{path}（模拟面试结果的第二份副本）不一致："
                             "{reason}；模拟面试文件完好，没有丢失任何内容"),
    "doctor.unfinished_mocks": ("{path}: its last write was cut short (a crash between its journal and the file); "
                                "the journal holds the mock result, and the next drill that opens the profile "
                                "finishes the write{reason}", "{path}：上一次写入中途中断（在日志副本与文件之间崩溃）；"
                                "日志副本里有这次模拟面试结果，下一个打开该档案的 drill 会完成这次写入{reason}"),
    "doctor.cache": ("{path} (a cache of statistics) is stale or damaged: harmless, it is made again when needed",
                     "{path}（统计缓存）已过期或损坏：无害，需要时会重新生成"),
    "doctor.unfinished": ("{path}: its last write was cut short (a crash between its journal and the file); the "
                          "journal holds the review, and the next drill that opens the profile finishes the write{reason}",
                          "{path}：上一次写入中途中断（在日志副本与文件之间崩溃）；日志副本里有这条复习记录，下一个打开该档案的"
                          " drill 会完成这次写入{reason}"),
    "doctor.old": ("{path} has no checksum yet (saved by an older infra-drill): it gets one at its next save",
                   "{path} 还没有校验和（由旧版 infra-drill 保存）：下次保存时会加上"),
    "doctor.all_good": ("All {files} save files of profile '{profile}' are whole ({path}).",
                        "档案“{profile}”的全部 {files} 个存档文件都完好（{path}）。"),
    "doctor.found": ("Profile '{profile}' ({path}): {n} problem(s) found.", "档案“{profile}”（{path}）：发现 {n} 个问题。"),
    "doctor.run_repair": ("Run drill doctor --repair to restore the damaged files from their journal and backups "
                          "(the newest review is kept; each damaged file is kept beside as .damaged).",
                          "运行 drill doctor --repair 可根据日志副本和备份恢复损坏的文件（保留最新的复习记录；"
                          "每个损坏的文件都以 .damaged 保留在旁边）。"),
    "doctor.from_journal": ("restored from its journal {path}: every review written to it is back",
                            "已根据日志副本 {path} 恢复：写入过的每条复习记录都已找回"),
    "doctor.from_backup": ("restored from its backup {path} (saved {when}) and {lines} later line(s) of its journal",
                           "已根据备份 {path}（保存于 {when}）及日志副本中其后的 {lines} 行恢复"),
    "doctor.journal_rewritten": ("written again from its whole log file {path}", "已根据完好的记录文件 {path} 重新写入"),
    "doctor.state_from_backup": ("settings restored from its backup {path} (saved {when}); the schedule and the "
                                 "figures are rebuilt from the review log", "设置已根据备份 {path}（保存于 {when}）恢复；"
                                 "复习计划和统计数据根据复习记录重建"),
    "doctor.state_rebuilt": ("the schedule and the figures are rebuilt from the review log",
                             "复习计划和统计数据根据复习记录重建"),
    "doctor.mocks_from_backup": ("restored from its backup {path} (saved {when}); a mock saved after that, if any, "
                                 "is not in it", "已根据备份 {path}（保存于 {when}）恢复；此后保存的模拟面试（如有）不在其中"),
    "doctor.mocks_from_journal": ("restored from its journal {path}: every mock result written to it is back",
                                  "已根据日志副本 {path} 恢复：写入过的每次模拟面试结果都已找回"),
    "doctor.mocks_from_backup_journal": ("restored from its backup {path} (saved {when}) and {lines} later line(s) of "
                                         "its journal", "已根据备份 {path}（保存于 {when}）及日志副本中其后的 {lines} 行恢复"),
    "doctor.lost_mocks_after_journal": ("mock results after the damage in {path} ({reason}) could not be recovered",
                                        "{path} 中损坏位置之后的模拟面试结果无法恢复（{reason}）"),
    "doctor.journal_rewritten_mocks": ("written again from the whole mocks file {path}",
                                       "已根据完好的模拟面试文件 {path} 重新写入"),
    "doctor.finished": ("the write was finished from its journal", "已根据日志副本完成这次写入"),
    "doctor.cache_stats": ("{path} (the statistics' running totals) is damaged or missing ({reason}): harmless, "
                           "made again from the log by drill doctor --repair or the next drill that writes to the profile",
                           "{path}（统计的累计值）已损坏或缺失（{reason}）：无害，drill doctor --repair 或下一次写入该档案时"
                           "会按练习记录重新生成"),
    "doctor.stats_rebuilt": ("made again from the log", "已按练习记录重新生成"),
    "doctor.cache_removed": ("removed; made again when needed", "已删除；需要时重新生成"),
    "doctor.lost_settings": ("no whole backup holds the settings: the defaults are used (set them again with drill "
                             "plan or in Settings)", "没有完好的备份保存着设置：将使用默认设置（可用 drill plan 或在设置中重新设定）"),
    "doctor.lost_after_journal": ("reviews after the damage in {path} ({reason}) could not be recovered",
                                  "{path} 中损坏位置之后的复习记录无法恢复（{reason}）"),
    "doctor.lost_file": ("no whole journal or backup of {path} is left: it is kept as it is; what it held could not "
                         "be recovered", "{path} 没有完好的日志副本或备份：它保持原样；其中的内容无法恢复"),
    "doctor.repair_failed": ("could not repair {path}: {error}", "无法修复 {path}：{error}"),
    "doctor.repaired_line": ("  repaired: {what}", "  已修复：{what}"),
    "doctor.lost_line": ("  not recovered: {what}", "  未能恢复：{what}"),
    "doctor.done": ("Repaired. Run drill doctor again to check.", "已修复。可再次运行 drill doctor 检查。"),
    "save.cause.full": ("the disk is full (no space left on the device)", "磁盘已满（设备上没有剩余空间）"),
    "save.cause.quota": ("the disk quota is used up", "磁盘配额已用完"),
    "save.cause.denied": ("permission denied", "没有写入权限"),
    "save.cause.read_only": ("the file system is read-only", "文件系统是只读的"),
    "save.cause.io": ("input/output error: the disk may be failing", "输入/输出错误：磁盘可能有故障"),
    "save.cause.other": ("{error}", "{error}（系统错误）"),
    "save.locked": ("profile '{profile}' is in use by {who}{tail}; close that drill first",
                    "档案“{profile}”正被{who}使用{tail}；请先关闭那个 drill"),
    "save.damaged_file": ("save file {path} is damaged: {reason}. It has not been changed.{fix}",
                          "存档文件 {path} 已损坏：{reason}。它未被改动。{fix}"),
    "save.incomplete": ("the profile {path} is not whole: {gaps}. Nothing has been written to it. To rebuild what "
                        "is missing from the journals, backups and snapshots, keeping the newest review, run: {fix}",
                        "档案 {path} 不完整：{gaps}。没有向它写入任何内容。要根据日志副本、备份和快照重建缺失的部分"
                        "并保留最新的复习记录，请运行：{fix}"),
    "doctor.missing": ("{path} is missing{reason}; nothing is written to the profile until it is repaired",
                       "{path} 不见了{reason}；修复之前不会向档案写入任何内容"),
    "doctor.shorter": ("{path} holds less than the manifest lists{reason}; nothing is written to the profile until "
                       "it is repaired", "{path} 的内容少于清单所列{reason}；修复之前不会向档案写入任何内容"),
    "doctor.changed": ("{path} is not the file the manifest lists (swapped, or a copy of another part){reason}; "
                       "nothing is written to the profile until it is repaired",
                       "{path} 不是清单所列的文件（被调换，或是另一部分的副本）{reason}；修复之前不会向档案写入任何内容"),
    "doctor.extra": ("{path} is not listed in the manifest (a copy, or left behind){reason}; repair moves it aside",
                     "{path} 不在清单中（副本或遗留文件）{reason}；修复时会把它移到一旁"),
    "doctor.extra_aside": ("moved aside as {path}", "已移到一旁，改名为 {path}"),
    "doctor.lost_ids": ("reviews {ids} of {path} are in no journal, backup or snapshot: they could not be recovered",
                        "{path} 中的复习记录 {ids} 不在任何日志副本、备份或快照中：无法恢复"),
    "doctor.manifest_rebuilt": ("the manifest is written again from the files as they are now",
                                "已根据现有文件重新写入清单"),
    "save.unreadable_file": ("save file {path} cannot be read: permission denied ({error}). It has not been changed. "
                             "Give your user read and write permission on it: {fix}",
                             "存档文件 {path} 无法读取：没有读取权限（{error}）。它未被改动。请给当前用户读写权限：{fix}"),
    "save.newer_file": ("save file {path} was written by a newer version of infra-drill (schema version {schema}; "
                        "this one reads {ours}): upgrade infra-drill to open it. It has not been changed.",
                        "存档文件 {path} 由更新版本的 infra-drill 写入（存档格式版本 {schema}，本版本读取 {ours}）："
                        "请升级 infra-drill 后再打开。它未被改动。"),
    "save.lock_unusable": ("the lock file {path} of profile '{profile}' is {what}, not a file, so the profile cannot "
                           "be locked; nothing was changed. If no drill is using the profile, move it away: {fix}",
                           "档案“{profile}”的锁文件 {path} 是{what}，不是文件，因此无法锁定该档案；未做任何修改。"
                           "如果没有 drill 在使用该档案，请把它移走：{fix}"),
    "save.bad_profile_name": ("profile name {name} must be 1-64 letters, digits, '_' or '-', starting with a letter "
                              "or digit",
                              "档案名 {name} 必须由 1-64 个字母、数字、“_”或“-”组成，并以字母或数字开头"),
    "save.saves_is_file": ("the saves folder {path} is a file, not a folder; nothing was changed. Point --saves "
                           "(or $DRILL_SAVES) at a folder, or move the file away",
                           "存档文件夹 {path} 是一个文件，不是文件夹；未做任何修改。请让 --saves（或 $DRILL_SAVES）"
                           "指向一个文件夹，或把这个文件移走"),
    "save.saves_under_file": ("the saves folder {path} cannot be made: {file} is a file, not a folder; nothing was "
                              "changed. Point --saves (or $DRILL_SAVES) at a folder",
                              "无法创建存档文件夹 {path}：{file} 是一个文件，不是文件夹；未做任何修改。"
                              "请让 --saves（或 $DRILL_SAVES）指向一个文件夹"),
}

# engine.units.KIND_NAMES in Chinese (same keys; tests/unit/test_messages.py checks).
KIND_NAMES_ZH: dict[str, str] = {
    "bytes": "字节数",
    "bandwidth": "带宽（每秒字节数）",
    "flop": "浮点运算量（FLOP）",
    "flop_rate": "算力（FLOP/s）",
    "intensity": "算术强度（FLOP/B）",
    "time": "时间",
    "tok_rate": "每秒 token 数（tok/s）",
    "ratio": "比例或百分比",
    "count": "个数",
    "bits": "比特数",
    "dollars": "金额（美元）",
    "usd_per_gpu_hour": "每 GPU 小时的价格（$/GPU-h）",
    "usd_per_mtok": "每百万 token 的价格（$/Mtok）",
    "gpu_hours": "GPU 小时数",
    "req_rate": "请求速率（req/s）",
    "step_rate": "步速率（step/s）",
    "power": "功率（W）",
    "energy_per_token": "每 token 能耗（J/token）",
    "mwh": "能耗（MWh）",
    "nats": "以 nat 计的损失",
}


# What a unit of a kind reads as, where that is not the kind's name (engine.answers: "GB is bytes, Gb is bits").
READING_NAMES: dict[str, str] = {"bytes": "bytes", "bandwidth": "bytes_per_s"}  # kind -> MESSAGES code
# A dimension the question asks for, where the dimension's symbols alone would not say it (tok/s is 1/s).
ASKED_DIMS: dict[str, tuple[str, str]] = {
    "tok_rate": ("tok/s (1/s)", " tok/s（1/s）"), "req_rate": ("req/s (1/s)", " req/s（1/s）"),
    "step_rate": ("step/s (1/s)", " step/s（1/s）"), "gpu_hours": ("GPU-h (a time: s)", " GPU-h（时间：s）"),
    "usd_per_gpu_hour": ("$/GPU-h ($/s)", " $/GPU-h（$/s）"), "usd_per_mtok": ("$/Mtok ($)", " $/Mtok（$）"),
    "power": ("W (J/s)", " W（J/s）"), "energy_per_token": ("J/token (J)", " J/token（J）"),
    "mwh": ("MWh (an energy: J)", " MWh（能量：J）"),
}


@frozen
class Twin:
    """A text written in both languages; without a Chinese twin the English is shown."""

    en: str
    zh: str = ""

    def text(self, lang: str = EN) -> str:
        return pick(lang, self.en, self.zh or None)

    def __str__(self) -> str:
        return self.en


@frozen
class Msg:
    """A message of :data:`MESSAGES` with its parameters."""

    code: str
    params: tuple[tuple[str, object], ...] = ()

    def text(self, lang: str = EN) -> str:
        en, zh = MESSAGES[self.code]
        if lang != ZH:  # the English quotes typed text with !r, which escapes control characters
            return en.format(**{k: in_lang(v, lang) for k, v in self.params})
        # the Chinese quotes it in “…”: escape control characters (a terminal escape typed into an answer)
        return zh.format(**{k: _visible(in_lang(v, lang)) for k, v in self.params})

    def __str__(self) -> str:
        return self.text(EN)


Said = Msg | Twin


def say(code: str, **params: object) -> Msg:
    """``say("wrong_kind", symbol="GB", ...)``; an unknown code is a bug (KeyError now, not when shown)."""
    if code not in MESSAGES:
        raise KeyError(f"no engine message {code!r}")
    return Msg(code, tuple(params.items()))


def _visible(value: object) -> object:
    """A text with its control characters escaped as Python writes them (``\\x1b``); anything else as it is."""
    if not isinstance(value, str) or value.isprintable():
        return value
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in value)


def in_lang(value: object, lang: str = EN) -> object:
    """A Msg or Twin rendered in ``lang``; anything else as it is."""
    return value.text(lang) if isinstance(value, (Msg, Twin)) else value


def join(items: Iterable[object], en: str = "; ", zh: str = "；") -> Twin:
    """Several texts joined with each language's separator."""
    items = tuple(items)
    return Twin(en.join(str(in_lang(i, EN)) for i in items), zh.join(str(in_lang(i, ZH)) for i in items))


def kind_name(kind: str) -> Twin:
    """``a size in bytes`` / ``字节数``."""
    return Twin(KIND_NAMES[kind], KIND_NAMES_ZH[kind])


def reading_name(kind: str) -> Said:
    """What a unit of ``kind`` is, after "GB is": ``bytes``, ``bytes per second``, else the kind's name."""
    code = READING_NAMES.get(kind)
    return say(code) if code else kind_name(kind)


def asked_dims(kind: str) -> Twin | None:
    """The words for the dimension ``kind`` asks for, when its symbols are not enough (``tok/s (1/s)``)."""
    words = ASKED_DIMS.get(kind)
    return Twin(*words) if words else None
