"""Every string of the app's interface, in English and Chinese, in one table.

Prompts, givens and solutions come from the question bank (``Step.prompt(lang)``
and friends); this table holds the app's own words, for the app and the commands alike.  Key bindings name
their description by ``Binding(id=...)``: :func:`drill.screens.named_bindings` puts it in
(the app's side: this module never imports textual).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from engine.langs import EN, pick

STRINGS: dict[str, tuple[str, str]] = {
    # key bindings (Binding ids)
    "key.help": ("Help", "帮助"),
    "key.lang": ("中文", "English"),
    "key.palette": ("palette", "命令面板"),
    "key.practice": ("Practise", "练习"),
    "key.mock": ("Mock interview", "模拟面试"),
    "key.stats": ("Stats", "统计"),
    "key.browse": ("Browse", "题库"),
    "key.settings": ("Settings", "设置"),
    "key.quit": ("Quit", "退出"),
    "key.back": ("Back", "返回"),
    "key.leave": ("Leave", "离开"),
    "key.dont_know": ("Don't know", "不会"),
    "key.undo": ("Undo", "撤销"),
    "key.hint": ("Hint", "提示"),
    "help.hint": ("Hint: 1 names the formula (grade 4 at most), 2 its numbers (3 at most), then the solution",
                  "提示：1 点出公式（最高 4 分），2 代入数字（最高 3 分），再按显示解答"),
    "key.scroll": ("Scroll", "滚动"),
    "help.scroll": ("Scroll the problem (the answer box keeps the keys you type)", "滚动题目（答案框仍接收输入）"),
    "key.next": ("Next", "下一题"),
    "key.again": ("Again", "重来"),
    "key.hard": ("Hard", "困难"),
    "key.good": ("Good", "良好"),
    "key.easy": ("Easy", "简单"),
    "key.quality": ("Set the grade: 0 blackout … 5 easy", "设定评分：0 完全不会 … 5 简单"),
    "key.extra": ("Extra practice", "加练"),
    "key.home": ("Home", "主页"),
    "key.practise_item": ("Practise this", "练这道"),
    "key.practise_topic": ("Practise topic", "练本主题"),
    "key.new_sample": ("Another sample", "换一个例子"),
    "key.close": ("Close", "关闭"),
    "key.browse_filter": ("Filter by words", "按关键词筛选"),
    "key.browse_topic": ("This topic only / all topics", "只看本主题 / 全部主题"),
    "key.browse_status": ("Status: new, due, lapsed, mastered, leech, suspended",
                          "状态：新、到期、遗忘、已掌握、顽固、已暂停"),
    "key.suspend": ("Suspend / resume", "暂停 / 恢复"),
    "key.leech_reset": ("Reset leech", "重置顽固题"),
    "key.browse_sort": ("Sort: bank order, due date, last result", "排序：题库顺序、到期日、上次结果"),
    **{f"key.q{q}": (f"Grade {q}", f"评分 {q}") for q in range(6)},
    "key.mock_start": ("Start", "开始"),
    "key.mock_skip": ("Skip", "跳过"),
    "key.mock_flag": ("Flag", "标记"),
    "key.mock_goto": ("Go back", "回看"),
    "key.mock_end": ("End mock", "结束"),
    "key.mock_queue": ("Practise missed", "错题加入练习"),
    "key.mock_yes": ("Yes", "是"),
    "key.mock_no": ("No", "否"),
    "key.mock_save_again": ("Save again", "再次保存"),
    "key.sort": ("Sort", "排序"),
    "key.reverse": ("Reverse", "反向"),
    "key.tab_prev": ("Previous tab", "上一个标签页"),
    "key.tab_next": ("Next tab", "下一个标签页"),
    "palette.key": ("key: {key}", "按键：{key}"),
    "palette.placeholder": ("Search: a screen, an action, a template (e.g. kv cache)…",
                            "搜索：界面、操作、题型（例如 kv cache）…"),
    "palette.screen.home": ("today at a glance and the ways in", "今日概况和各个入口"),
    "palette.screen.help": ("every key of every screen", "所有界面的全部按键"),
    "palette.screen.settings": ("Settings", "设置"),
    "palette.screen.settings_help": ("your profile's settings", "当前档案的设置"),
    "home.way.practice_short": ("today's session of due and new items", "今日练习：到期题和新题"),
    "palette.practise": ("Practise: ", "练习："),
    "palette.card": ("Card: ", "公式卡："),
    # Textual's own palette commands (drill.palette.SYSTEM_COMMANDS)
    "system.theme": ("Theme", "配色"),
    "system.theme_help": ("Change the current theme", "切换界面配色"),
    "system.quit": ("Quit", "退出"),
    "system.quit_help": ("Quit the application as soon as possible", "立即退出程序"),
    "system.keys": ("Keys", "按键"),
    "system.keys_show": ("Show help for the focused widget and a summary of available keys",
                         "显示当前控件的帮助和可用按键一览"),
    "system.keys_hide": ("Hide the keys and widget help panel", "隐藏按键和控件帮助面板"),
    "system.maximize": ("Maximize", "最大化"),
    "system.maximize_help": ("Maximize the focused widget", "最大化当前控件"),
    "system.minimize": ("Minimize", "还原"),
    "system.minimize_help": ("Minimize the widget and restore to normal size", "把控件还原为正常大小"),
    "system.screenshot": ("Screenshot", "截图"),
    "system.screenshot_help": ("Save an SVG 'screenshot' of the current screen", "把当前屏幕保存为 SVG 截图"),
    "screen.unavailable": ("The {name} screen is not available in this build.", "此版本中没有“{name}”界面。"),
    # home
    "home.title": ("Today · {date}", "今天 · {date}"),
    "home.profile": ("profile {name}", "档案 {name}"),
    "home.due": ("Due now", "到期"),
    "home.new": ("New today", "今日新题"),
    "home.streak": ("Streak", "连续天数"),
    "home.today": ("Reviews today", "今日已答"),
    "home.days": ("{n} d", "{n} 天"),
    "home.next_due": ("Next item due {when}.", "下一道题 {when} 到期。"),
    "home.nothing_scheduled": ("Nothing scheduled yet: start with today's new items.", "还没有排期：先做今天的新题。"),
    "home.way.practice": ("today's session: {n} problems", "今日练习：{n} 道题"),
    "home.way.practice_one": ("today's session: 1 problem", "今日练习：1 道题"),
    "home.way.queued": (" ({k} queued from your mock)", "（其中 {k} 道来自模拟面试）"),
    "home.way.practice_done": ("today is done: extra practice on your weakest items", "今日练习已完成；可加练最弱的题"),
    "home.way.mock": ("a timed mock interview", "限时模拟面试"),
    "home.way.stats": ("progress, accuracy by topic, what is due", "进度、各主题正确率、到期情况"),
    "home.way.browse": ("every template, its schedule, practise any", "全部题型、排期，任选练习"),
    "home.bank": ("{n} templates in {topics} topics", "共 {n} 个题型，{topics} 个主题"),
    "home.way.settings": ("new items and reviews a day, your interview date", "每天新题数、复习上限、面试日期"),
    "home.interview": ("Interview in {n} days ({date})", "距面试还有 {n} 天（{date}）"),
    "home.interview_one": ("Interview tomorrow ({date})", "明天面试（{date}）"),
    "home.interview_today": ("Interview today ({date}): good luck. Nothing is due; a warm-up is yours to choose",
                             "今天面试（{date}），祝顺利。没有到期的题，热身与否由你决定"),
    "home.interview_past": ("Interview {date} has passed: plain spaced repetition again",
                            "面试（{date}）已过：恢复常规间隔重复"),
    "home.pace": ("{left} new items, {days} days left, new items done by day {by}: {pace} a day",
                  "还有 {left} 个新题型，剩 {days} 天，第 {by} 天前学完：每天 {pace} 道"),
    "home.pace_one": ("{left} new items, 1 day left: {pace} today", "还有 {left} 个新题型，只剩 1 天：今天 {pace} 道"),
    "home.pace_limit": (" (your limit: {limit} a day)", "（当前上限：每天 {limit} 道）"),
    "home.pace_warning": ("more than a person can do well (over {limit} a day)",
                          "超出一个人能做好的量（每天超过 {limit} 道）"),
    "home.held_back": (" ({k} more due, over today's review cap)", "（另有 {k} 道到期，超出今日复习上限）"),
    # settings
    "settings.title": ("Settings", "设置"),
    "settings.new_per_day": ("New items a day", "每天新题数"),
    "settings.new_per_day_hint": ("0-100; with an interview date, more when needed to meet every template in time",
                                  "0-100；设了面试日期时，为按时学完所有题型会自动增加"),
    "settings.reviews_per_day": ("Reviews a day at most", "每天复习上限"),
    "settings.reviews_per_day_hint": ("1-10000; the most overdue first, the rest stay due",
                                      "1-10000；最逾期的先复习，其余保持到期"),
    "settings.interview": ("Interview date", "面试日期"),
    "settings.scheduler": ("Scheduler", "调度算法"),
    "settings.scheduler_hint": ("sm2 (the default) or fsrs: FSRS spaces reviews by a model of memory, "
                                "replaying your history; Enter saves",
                                "sm2（默认）或 fsrs：FSRS 按记忆模型安排复习，会重放你的历史；Enter 保存"),
    "settings.retention": ("FSRS desired retention", "FSRS 期望记忆保持率"),
    "settings.retention_hint": ("0.80-0.97 (default 0.90): the recall FSRS aims at when a review falls due; "
                                "about {n:.1f} reviews a day at {r:.2f} (simulated)",
                                "0.80-0.97（默认 0.90）：FSRS 让复习在预计记忆降到此值时到期；"
                                "{r:.2f} 时每天约 {n:.1f} 次复习（模拟）"),
    "settings.bad_retention": ("a number from 0.80 to 0.97, please", "请输入 0.80 到 0.97 之间的数"),
    "settings.fsrs_optimize": ("Fit FSRS to my reviews", "按我的复习拟合 FSRS"),
    "settings.fsrs_fitting": ("Fitting FSRS weights to your reviews... Esc cancels",
                              "正在按你的复习拟合 FSRS 权重……按 Esc 取消"),
    "settings.pace_title": ("Take the pace?", "采用这个节奏？"),
    "settings.pace_body": ("{line}\nSet new items a day from {limit} to {pace}?",
                           "{line}\n把每天新题数从 {limit} 改为 {pace}？"),
    "settings.pace_taken": ("New items a day: {pace}.", "每天新题数：{pace}。"),
    "settings.pace_kept": ("Kept {limit} new items a day.", "保持每天 {limit} 道新题。"),
    "settings.interview_hint": ("YYYY-MM-DD, empty for none: each template's last reviews are spread over the "
                                "{stretch} days before it, and the day itself asks nothing you do not choose",
                                "YYYY-MM-DD，留空表示没有：每个题型的最后几次复习分散在面试前 {stretch} 天内，"
                                "面试当天不强制任何练习"),
    "settings.hardware": ("Practise on this accelerator", "练习用的加速器"),
    "settings.hardware_hint": ("an id of `drill catalogue` (your own from <saves>/catalogue/ too), empty for the "
                               "catalogue's mix: roofline, decode, ZeRO and fit problems draw it",
                               "`drill catalogue` 中的 id（含 <存档文件夹>/catalogue/ 里自己的），留空表示按目录随机："
                               "roofline、decode、ZeRO 和显存容量题会用它出题"),
    "settings.model": ("Practise on this model", "练习用的模型"),
    "settings.model_hint": ("an id of `drill catalogue` (your own from <saves>/catalogue/ too), empty for the "
                            "catalogue's mix: weights, fit, KV cache, decode, prefill and ZeRO problems draw it",
                            "`drill catalogue` 中的 id（含 <存档文件夹>/catalogue/ 里自己的），留空表示按目录随机："
                            "权重、显存容量、KV Cache、decode、prefill 和 ZeRO 题会用它出题"),
    "settings.bad_model": ("no model of the catalogue has this id (see `drill catalogue`)",
                           "目录中没有这个 id 的模型（见 `drill catalogue`）"),
    "settings.bad_hardware": ("no accelerator of the catalogue has this id (see `drill catalogue`)",
                              "目录中没有这个 id 的加速器（见 `drill catalogue`）"),
    "settings.keys": ("an edit is saved on Enter, Tab or Esc · Tab next field · Esc back",
                      "修改在按 Enter、Tab 或 Esc 时保存 · Tab 下一项 · Esc 返回"),
    "settings.esc_again": ("not saved; Esc again leaves without it", "未保存；再按 Esc 放弃此修改并返回"),
    "settings.saved": ("Saved.", "已保存。"),
    "settings.bad_number": ("a whole number {lo}-{hi}, please", "请输入 {lo}-{hi} 之间的整数"),
    "settings.bad_date": ("a date YYYY-MM-DD, please", "请输入日期 YYYY-MM-DD"),
    "settings.past_date": ("the date must be after today", "日期必须在今天之后"),
    "settings.no_interview": ("No interview date: plain spaced repetition.", "没有面试日期：常规间隔重复。"),
    "settings.bad_scheduler": ("sm2 or fsrs, please", "请输入 sm2 或 fsrs"),
    "settings.convention": ("Convention: {name}", "约定：{name}"),
    "settings.convention_hint": ("{choices}; problems state it and are graded by it",
                                 "{choices}；题目会写明并按它评分"),
    "settings.convention_bytes_hint": ("{choices}; sets the ZeRO split too (10, the JAX book's, is recognised when "
                                       "graded, not chosen); problems state it and are graded by it",
                                       "{choices}；同时决定 ZeRO 的切分方式（JAX scaling book 的 10 在评分时能识别，"
                                       "但不能选）；题目会写明并按它评分"),
    "settings.bad_convention": ("one of {values}, please", "请输入 {values} 之一"),
    "plan.accept": ("To take this pace: drill plan --new-per-day {pace}", "采用这个节奏：drill plan --new-per-day {pace}"),
    "plan.accept_over": ("The pace is above the most a day can take ({most}): a later date, or fewer topics",
                         "这个节奏超过每天上限（{most}）：请推迟日期或减少主题"),
    "plan.scheduler": ("Scheduler: {name}", "调度算法：{name}"),
    "plan.warmup": ("Nothing is due today. A warm-up if you want one (extra practice, x): {items}",
                    "今天没有到期的题。想热身的话（额外练习，x）：{items}"),
    "ready.head": ("Readiness on {date} (the chance of a fresh problem right, fitted on your answers):",
                   "{date} 的就绪度（答对一道新题的概率，按你的作答拟合）："),
    "ready.not_enough": ("not enough answers yet ({n} of {need})", "作答还不够（{n}/{need}）"),
    "ready.answers": ("{n} answers", "{n} 次作答"),
    "ready.figure": ("{p} %  ({level} % interval {lo}-{hi} %, {n} answers)", "{p} %（{level} % 区间 {lo}-{hi} %，{n} 次作答）"),
    "ready.figure_overall": ("{p} %  ({level} % interval {lo}-{hi} %)", "{p} %（{level} % 区间 {lo}-{hi} %）"),
    "ready.waiting": ("{n} answers; shown once every topic has {need}", "已作答 {n} 次；每个主题都满 {need} 次后显示"),
    "ready.not_enough_topics": ("not enough answers yet ({k} topics below {need})",
                                "作答还不够（{k} 个主题不足 {need} 次）"),
    "ready.overall": ("Overall", "总体"),
    "ready.calibration": ("Calibration (predicted 7+ days before): {p} % predicted, {o} % right over {n} answers "
                          "(Brier score {brier})",
                          "校准（提前 7 天以上预测）：预测 {p} %，实际答对 {o} %，共 {n} 次作答（Brier 分数 {brier}）"),
    "ready.reliability": ("  right, by predicted chance: {bins}", "  按预测概率分组的实际答对率：{bins}"),
    "ready.bin": ("{lo}-{hi} %: {o} % ({n})", "{lo}-{hi} %：{o} %（{n} 次）"),
    "ready.no_calibration": ("Calibration: not enough history yet (predictions are scored 7+ days later)",
                             "校准：历史还不够（预测在 7 天以后才评分）"),
    "today": ("today", "今天"),
    "tomorrow": ("tomorrow", "明天"),
    "in_days": ("in {n} days ({date})", "{n} 天后（{date}）"),
    "overdue": ("now", "现在"),
    # practice
    "practice.title": ("Practice", "练习"),
    "practice.progress": ("{done}/{total}", "{done}/{total}"),
    "practice.step": ("Step {n} of {total}", "第 {n} 步，共 {total} 步"),
    "practice.redrill": ("again, new numbers", "再练一次，换了数字"),
    "practice.extra": ("extra", "加练"),
    "practice.placeholder": ("your answer, e.g. 1.12 TB or 2039/140  (? = don't know)",
                             "你的答案，例如 1.12 TB 或 2039/140（? = 不会）"),
    "practice.typing": ("Type your answer; Enter submits; f2: formula card; f3: hint.",
                        "输入答案，回车提交；f2：公式卡；f3：提示。"),
    "practice.hint_capped": ("  Graded {q}, capped at {cap}: hint {n} taken.", "  系统评分 {q}，上限 {cap}：用了提示 {n}。"),
    "practice.hint_taken": ("  Hint {n} taken.", "  用了提示 {n}。"),
    "practice.hint_next": ("f3 again: {what}", "再按 f3：{what}"),
    "practice.hint_more": ("hint 2 (grade 3 at most)", "提示 2（最高 3 分）"),
    "practice.no_hint": ("No hint for this question (Ctrl+G: the solution).", "本题没有提示（Ctrl+G：显示解答）。"),
    "practice.hint_solution": ("the solution (don't know)", "显示解答（不会）"),
    "key.mock_hint": ("Hint: none in a mock", "提示：模拟面试不提供"),
    "mock.no_hint": ("No hints in a mock: it is timed as the interview is.", "模拟面试不给提示：与真实面试一样计时。"),
    "practice.understood": ("understood: {what}", "识别为：{what}"),
    # Ctrl+G with an answer typed: asked once instead of throwing the answer away
    "practice.dont_know_typed": ("Ctrl+G again: don't know; Enter: grade what you typed.",
                                 "再按 Ctrl+G：不会；回车：按已输入的答案评分。"),
    "practice.cannot_read": ("can't read it yet: {why}", "还读不懂：{why}"),
    "practice.checking": ("checking the expression symbolically…  (Ctrl+G: I don't know · Esc: leave)",
                          "正在对表达式做符号核对……（Ctrl+G：不会 · Esc：离开）"),
    "practice.not_graded": ("Not graded, not recorded: {why}", "未评分、未记录：{why}"),
    # a write to the saves that failed (engine.storage.SaveFailed says the path and the cause: {why})
    "save.answer_kept": ("Not saved: {why}. Your answer is kept: free some space (or fix the permission), "
                         "then press Enter again.",
                         "未保存：{why}。你的答案仍在：腾出空间（或修正权限）后再按回车。"),
    "save.setting_kept": ("Not saved: {why}. Your value is kept: free some space (or fix the permission), "
                          "then press Enter again.",
                          "未保存：{why}。你填的值仍在：腾出空间（或修正权限）后再按回车。"),
    "save.card_not_kept": ("The card is read but not remembered as read: {why}. It will be shown again before "
                           "this template's first problem.",
                           "公式卡已读，但没能记下：{why}。下次做这个题型的第一道题前还会显示。"),
    "save.dont_know_kept": ("Not saved: {why}. Free some space (or fix the permission), then press Ctrl+G again.",
                            "未保存：{why}。腾出空间（或修正权限）后再按 Ctrl+G。"),
    "save.grade_kept": ("The grade was not changed: {why}. The answer keeps its grade; free some space (or fix "
                        "the permission), then press the key again.",
                        "评分未修改：{why}。答案保留原来的评分；腾出空间（或修正权限）后再按一次该键。"),
    "save.undo_refused": ("Not undone: {why}. The answer stays recorded; free some space (or fix the permission), "
                          "then press Ctrl+Z again.",
                          "未撤销：{why}。答案仍然记录在案；腾出空间（或修正权限）后再按 Ctrl+Z。"),
    "save.undo_partly": ("Undone, but one of its rows is still in the log: {why}. It is taken back before your "
                         "next answer is saved.",
                         "已撤销，但它的一条记录还留在日志里：{why}。保存你的下一个答案之前会先把它撤掉。"),
    "save.not_recorded": ("Not recorded: {why}. Free some space (or fix the permission), then run the same "
                          "command again.",
                          "未记录：{why}。请腾出空间（或修正权限）后再运行同一条命令。"),
    "save.state_behind": ("Note: {why}; the review itself is stored in the log, and the summary file is "
                          "rebuilt from it once it can be written.",
                          "注意：{why}；这次复习本身已存入记录，摘要文件会在可写入时从记录重建。"),
    "save.bad_clock": ("the computer's clock says {now}: answers cannot be dated outside {lo}-{hi}, so nothing is "
                       "recorded. Set the date and time, then run drill again",
                       "电脑时钟显示 {now}：{lo}-{hi} 年以外的答案无法记录日期，因此不会记录任何内容。"
                       "请设置正确的日期和时间后再运行 drill"),
    "save.state_behind_app": ("Note: {why}; your answers are stored in the log, and the summary file is rebuilt "
                              "from it once it can be written.",
                              "注意：{why}；你的答案都已存入记录，摘要文件会在可写入时从记录重建。"),
    "save.chain_not_whole": ("The whole-chain review was not stored: {why}. Once space is freed, run the same "
                             "command again: step {step} is not recorded twice.",
                             "整条链的复习未能保存：{why}。腾出空间后再运行同一条命令：第 {step} 步不会重复记录。"),
    "save.lang_not_kept": ("The language is switched for now but not remembered: {why}.",
                           "语言已切换，但未能记住：{why}。"),
    "save.limit_unchanged": ("The daily limit was not changed: {why}.", "每日新题上限未修改：{why}。"),
    "save.plan_unchanged": ("Nothing was changed: {why}. Free some space (or fix the permission), then run the same "
                            "command again.",
                            "未做任何修改：{why}。请腾出空间（或修正权限）后再运行同一条命令。"),
    "save.not_imported": ("Nothing was imported: {why}. The profile is as it was.",
                          "未导入任何内容：{why}。存档保持原样。"),
    "save.not_exported": ("Not exported: {why}.", "未导出：{why}。"),
    "import.future": ("{source}: dated more than {days} days after now ({now}), which no clock on earth has "
                      "reached: {what}; nothing was imported. Correct the clock that wrote them, or run "
                      "`drill import --skip-future` to import the rest",
                      "{source}：日期晚于现在（{now}）超过 {days} 天，地球上任何时区的时钟都还没走到："
                      "{what}；未导入任何内容。请校正写入它们的电脑时钟，或运行 "
                      "`drill import --skip-future` 导入其余部分"),
    "import.future_reviews": ("reviews with ids {names}", "复习记录 id {names}"),
    "import.future_states": ("the states of {names}", "题目 {names} 的复习状态"),
    "import.future_mocks": ("mock interviews with ids {names}", "模拟面试 id {names}"),
    "import.future_more": ("and {n} more", "等，另有 {n} 个"),
    "import.left_out": ("{n} of the file's reviews, states and mock interviews are dated more than {days} days after "
                        "now: left out.",
                        "文件中有 {n} 条复习记录、复习状态或模拟面试的日期晚于现在超过 {days} 天：已跳过。"),
    "import.left_out.one": ("1 of the file's reviews, states and mock interviews is dated more than {days} days "
                            "after now: left out.",
                            "文件中有 1 条复习记录、复习状态或模拟面试的日期晚于现在超过 {days} 天：已跳过。"),
    "save.damaged": ("Damaged save file, left out: {path} ({reason}). To restore it: {fix}",
                     "存档文件已损坏，已跳过：{path}（{reason}）。恢复方法：{fix}"),
    "save.unreadable": ("Save file left out, it cannot be read: {path} ({reason}). To fix it: {fix}",
                        "存档文件无法读取，已跳过：{path}（{reason}）。修复方法：{fix}"),
    "save.damaged_more": (" (and {n} more)", "（另有 {n} 个）"),
    "save.setting_ignored": ("The setting {key} in {path} is not used: {problem}. The default is used until you "
                             "set it again.",
                             "{path} 中的设置 {key} 未被采用：{problem}。在你重新设置之前使用默认值。"),
    "practice.you": ("You: ", "你的答案："),
    "practice.expected": ("Expected: ", "正确答案："),
    "practice.note": ("({note})", "（{note}）"),
    "practice.error": ("error {err}", "误差 {err}"),
    "practice.band": ("band: ±{tol} % correct, ±{close} % close", "判定区间：±{tol} % 正确，±{close} % 接近"),
    "practice.band_integer": ("band: the exact whole number", "判定区间：须为精确整数"),
    "practice.misconception": ("Looks like you {what}.", "看起来你{what}。"),
    "solution": ("Worked solution", "解题过程"),
    "practice.grade": ("Grade {q} ({name}).", "评分 {q}（{name}）。"),
    "practice.grade_chain": ("Chain grade {q} ({name}): the lowest of its steps.",
                             "整题评分 {q}（{name}）：取各步最低分。"),
    "practice.grade_chain_slip": ("Chain grade {q} ({name}): one slip among right steps passes with 3.",
                                  "整题评分 {q}（{name}）：只错一步、其余各步都对，记为及格 3 分。"),
    "practice.grade_chain_again": ("Chain grade {q} ({name}): the same step failed as last time, so the chain "
                                   "starts over and that step is drilled alone.",
                                   "整题评分 {q}（{name}）：与上次错在同一步，题链从头开始，该步单独练习。"),
    "practice.grade_keys": ("Change the grade: 0-5, or a Again (1) · h Hard (3) · g Good (4) · e Easy (5).  "
                            "Enter: next · u: undo · c: formula card",
                            "修改评分：0-5，或 a 重来 (1) · h 困难 (3) · g 良好 (4) · e 简单 (5)。回车：下一题 · u：撤销 · "
                            "c：公式卡"),
    "practice.step_keys": ("Enter: next step · 0-5 to change this step's grade · u undo · c formula card",
                           "回车：下一步 · 0-5 修改本步评分 · u 撤销 · c 公式卡"),
    "practice.set_by_you": ("  Set by you: the engine gave {q}.", "  由你设定，系统评分为 {q}。"),
    "practice.peeked": ("  At most 3: the formula card was opened while answering (the engine gave {q}).",
                        "  最高 3 分：作答时打开了公式卡片（系统评分为 {q}）。"),
    "practice.overridden": ("Grade changed to {q} ({name}).", "评分改为 {q}（{name}）。"),
    "practice.undone": ("Undone: answer it again. Graded 3 at most: its solution was shown.",
                        "已撤销：请重新作答。最高 3 分：已看过解答。"),
    "practice.after_solution": ("  At most 3: answered again after an undo, the solution seen (the engine gave {q}).",
                                "  最高 3 分：撤销后重答，已看过解答（系统评分为 {q}）。"),
    "practice.nothing_to_undo": ("Nothing to undo in this session.", "本次练习没有可撤销的答案。"),
    "check.profile_unread": ("graded, but your profile cannot be read: {why}", "已评分，但无法读取你的档案：{why}"),
    "cli.output_lost": ("could not write the output: {cause}. The command itself ran to its end; only its output "
                        "is lost", "无法写出输出：{cause}。命令本身已执行完毕，只是输出丢失了"),
    "cli.output_closed": ("the output was closed before the end (the reader stopped); the command itself ran to its "
                          "end", "输出在结束前被关闭（读取的一方已停止）；命令本身已执行完毕"),
    "saves.missing": ("the saves folder {path} does not exist ({why}): nothing was read. Check the path; a new "
                      "folder is made by the first answer recorded in it",
                      "存档文件夹 {path} 不存在（{why}）：未读取任何内容。请检查路径；新文件夹会在其中记录第一个答案时创建"),
    "profile.missing": ("profile '{name}' does not exist; existing: {existing}. A new profile is made by the first "
                        "answer recorded in it (drill --profile {name} practice)",
                        "档案“{name}”不存在；现有档案：{existing}。新档案会在其中记录第一个答案时创建"
                        "（drill --profile {name} practice）"),
    "profile.none": ("none", "无"),
    "saves.note": ("Progress is saved in {path} ({why}).", "进度保存在 {path}（{why}）。"),
    "saves.from_option": ("chosen with --saves", "由 --saves 指定"),
    "saves.from_env": ("chosen with $DRILL_SAVES", "由 $DRILL_SAVES 指定"),
    "saves.from_checkout": ("the saves/ folder of the checkout drill runs from; --saves or $DRILL_SAVES choose another",
                            "drill 所在源码目录的 saves/；可用 --saves 或 $DRILL_SAVES 另选"),
    "saves.from_user": ("your user data folder; --saves or $DRILL_SAVES choose another",
                        "你的用户数据目录；可用 --saves 或 $DRILL_SAVES 另选"),
    "practice.not_scheduled": ("saved; it was not due yet, so its next review stays where it was "
                               "(a wrong answer would have brought it forward)",
                               "已保存；这道题还没到期，下次复习时间不变（答错才会提前）"),
    "practice.not_scheduled_redrill": ("saved; your first answer today already set its next review",
                                       "已保存；下次复习时间已按你今天第一次的回答安排"),
    "practice.next_review": ("next review {when}", "下次复习 {when}"),
    "practice.comes_back": ("It comes back later in this session.", "本次练习稍后会再出现。"),
    "practice.empty": ("Nothing is due and today's new items are done.", "没有到期的题，今天的新题也做完了。"),
    "practice.empty_next": ("The next item is due {when}.", "下一道题 {when} 到期。"),
    "practice.empty_none": ("Nothing is scheduled yet.", "还没有任何排期。"),
    "practice.empty_offer": ("Press x for extra practice on your weakest templates:",
                             "按 x 加练你最弱的题型："),
    "practice.empty_back": ("or Escape to go back.", "或按 Esc 返回。"),
    "verdict.correct": ("Correct", "正确"),
    "verdict.convention": ("By another convention", "按另一种约定"),
    "verdict.close": ("Close", "接近"),
    "verdict.wrong": ("Wrong", "错误"),
    "verdict.dont_know": ("Don't know", "不会"),
    "quality.0": ("blackout", "完全不会"),
    "quality.1": ("again", "重来"),
    "quality.2": ("wrong, but close in spirit", "错，但思路相近"),
    "quality.3": ("hard", "困难"),
    "quality.4": ("good", "良好"),
    "quality.5": ("easy", "简单"),
    # summary
    "summary.title": ("Session summary", "练习小结"),
    "summary.answered": ("Answered", "已答"),
    "summary.correct": ("Correct", "正确"),
    "summary.close": ("Close", "接近"),
    "summary.wrong": ("Wrong", "错误"),
    "summary.dont_know": ("Don't know", "不会"),
    "summary.time": ("Time", "用时"),
    "summary.counted_by": ("Counted by your final grade, after any override", "按最终评分计（含手动改分）"),
    "summary.by_topic": ("Accuracy by topic (correct or close)", "各主题正确率（正确或接近）"),
    "summary.topic": ("Topic", "主题"),
    "summary.accuracy": ("Accuracy", "正确率"),
    "summary.due_tomorrow": ("Due tomorrow: {n}", "明天到期：{n}"),
    "summary.nothing": ("Nothing was answered.", "没有作答。"),
    "summary.back": ("Press Enter to go back to {where}.", "按回车返回{where}。"),
    # browse
    "browse.template": ("Template", "题型"),
    "browse.state": ("State", "状态"),
    "browse.due": ("Due", "到期"),
    "browse.ef": ("EF", "EF"),
    "browse.last": ("Last", "上次"),
    "browse.new": ("new", "新"),
    "browse.learning": ("learning", "学习中"),
    "browse.review": ("review", "复习"),
    "browse.preview": ("Sample problem (seed {seed})", "示例题（种子 {seed}）"),
    "browse.answer": ("Answer: {answer}", "答案：{answer}"),
    "browse.all": ("all", "全部"),
    "browse.schedule_new": ("new: not scheduled yet", "新题：尚未排期"),
    "browse.schedule_due": ("due {when}", "{when}到期"),
    "browse.schedule_interval": ("every {n} d", "间隔 {n} 天"),
    "browse.schedule_last": ("last {verdict} ({date})", "上次{verdict}（{date}）"),
    "browse.status.new": ("new", "新题"),
    "browse.status.due": ("due", "到期"),
    "browse.status.lapsed": ("lapsed", "遗忘"),
    "browse.status.mastered": ("mastered", "已掌握"),
    "browse.status.leech": ("leech", "顽固"),
    "browse.status.suspended": ("suspended", "已暂停"),
    "browse.leech": ("leech: failed {n} times (z: suspend · l: reset)", "顽固题：已失败 {n} 次（z：暂停 · l：重置）"),
    "browse.suspended": ("suspended: not scheduled (z: resume)", "已暂停：不再排期（z：恢复）"),
    "browse.suspended_now": ("{title}: suspended, no longer scheduled (z again: resume).",
                             "{title}：已暂停，不再排期（再按 z 恢复）。"),
    "browse.resumed": ("{title}: back in the schedule.", "{title}：已恢复排期。"),
    "browse.reset_done": ("{title}: lapses counted afresh from now: no longer a leech.",
                          "{title}：失败次数从现在起重新计算，不再是顽固题。"),
    "browse.not_leech": ("{title} is not a leech (6 failed answers make one): nothing to reset.",
                         "{title} 不是顽固题（失败 6 次才算）：无需重置。"),
    "save.mark_not_kept": ("Not changed: {why}. Free some space (or fix the permission), then press the key again.",
                           "未修改：{why}。腾出空间（或修正权限）后再按一次。"),
    "browse.count": ("{n}/{total}", "{n}/{total}"),
    "browse.filter_key": ("filter", "筛选"),
    "browse.topic_key": ("topic: {topic}", "主题：{topic}"),
    "browse.status_key": ("status: {status}", "状态：{status}"),
    "browse.sort_key": ("sort: {sort}", "排序：{sort}"),
    "browse.sort.bank": ("by topic", "按主题"),
    "browse.sort.due": ("due date", "到期日"),
    "browse.sort.last": ("last result", "上次结果"),
    "browse.filter_placeholder": ("/ type to filter: title, id or topic (English or 中文)",
                                  "/ 输入关键词筛选：标题、编号或主题（中英文均可）"),
    "browse.none": ("No template matches: empty the filter (/ then Escape), or change v / f.",
                    "没有匹配的题型：清空筛选框（/ 后按 Esc），或用 v / f 调整条件。"),
    # help
    "help.title": ("Keys", "按键"),
    "help.everywhere": ("Everywhere", "所有界面"),
    "help.home": ("Home", "主页"),
    "help.practice_answering": ("Practice: answering", "练习：作答时"),
    "help.practice_feedback": ("Practice: after an answer", "练习：作答后"),
    "help.practice_empty": ("Practice: nothing left for today", "练习：今天没有题了"),
    "help.browse": ("Browse (on a topic heading, p practises the whole topic)", "题库（在主题标题行上按 p 练习整个主题）"),
    "help.stats": ("Stats", "统计"),
    "help.mock_setup": ("Mock interview: setup", "模拟面试：设置"),
    "help.mock_run": ("Mock interview: answering (no verdicts until the end)", "模拟面试：作答时（结束前不显示对错）"),
    "help.mock_report": ("Mock interview: report", "模拟面试：报告"),
    "help.mock_solution": ("Worked solution of the selected question", "查看所选题的解答"),
    "help.lang": ("Switch English / 中文", "切换 English / 中文"),
    "help.next": ("Next (accept the grade)", "下一题（接受评分）"),
    "help.again": ("Again: grade 1", "重来：评分 1"),
    "help.hard": ("Hard: grade 3", "困难：评分 3"),
    "help.good": ("Good: grade 4", "良好：评分 4"),
    "help.easy": ("Easy: grade 5", "简单：评分 5"),
    "help.answers": ("Answers: numbers with units (1.12 TB, 2039/140, 45%, 1.5k); a bare number is read in "
                     "the unit the question asks for; type ? and Enter for \"I don't know\".",
                     "答案：带单位的数（1.12 TB、2039/140、45%、1.5k）；不带单位的数按题目要求的单位读取；"
                     "输入 ? 回车表示“不会”。"),
    "help.grades": ("Grades (SM-2): 5 correct in time · 4 correct · 3 close · 2 wrong, a known slip · "
                    "1 wrong · 0 don't know. A chain's grade is the lowest of its steps, but one slip among "
                    "right steps passes with 3; below 4 it comes back later in the session with new numbers.",
                    "评分（SM-2）：5 限时内正确 · 4 正确 · 3 接近 · 2 错误但属常见失误 · 1 错误 · 0 不会。"
                    "多步题取各步最低分，但只错一步、其余都对时记为及格 3 分；低于 4 分的题会在本次练习稍后换数字再出现。"),
    "help.submit": ("Submit the answer", "提交答案"),
    "help.palette": ("Command palette: every screen, this screen's actions, any template by name",
                     "命令面板：所有界面、本界面的操作、按名称找任一题型"),
    "help.quit": ("Quit", "退出"),
    # mock interview
    "mock.title": ("Mock interview", "模拟面试"),
    "mock.schedule_note": ("Every answer is logged. A template answered for the first time enters your review "
                           "schedule (SM-2) with that grade; after that a miss restarts it (due tomorrow), a due "
                           "one is reviewed, and any other answer leaves its due date as it is.",
                           "每次作答都会记录。第一次作答的题型按这次的评分进入复习计划（SM-2）；此后答错会让它重新开始"
                           "（明天到期），到期的题按复习处理，其余作答不改变到期日。"),
    "mock.no_feedback": ("No verdicts or solutions until the end, as in a real whiteboard round.",
                         "和真实白板面试一样：结束前不显示对错和解答。"),
    "mock.minutes": ("Minutes", "时长（分钟）"),
    "mock.questions": ("or questions", "或题目数"),
    "mock.questions_ph": ("blank: fill the time", "留空：按时长出题"),
    "mock.topics": ("Topics", "主题"),
    "mock.chains": ("Include follow-up chains", "包含多步追问题"),
    "mock.seed": ("Seed", "种子"),
    "mock.seed_ph": ("blank: a new mock, weighted towards your weaker templates", "留空：新出一套，偏重你较弱的题型"),
    "mock.preview": ("questions: {n} ({chains} with follow-up steps) · time: {time} · seed {seed} ({how})",
                     "题目：{n} 道（其中 {chains} 道多步题）· 限时：{time} · 种子 {seed}（{how}）"),
    "mock.preview_weighted": ("weighted towards your weaker templates", "偏重你较弱的题型"),
    "mock.preview_shared": ("shared seed: the same mock for everyone", "共享种子：人人同一套题"),
    "mock.no_topics": ("Choose at least one topic.", "至少选择一个主题。"),
    "mock.start_hint": ("Enter or the Start button begins the clock.", "按回车或“开始”按钮开始计时。"),
    "mock.position": ("Question {n} / {total}", "第 {n} / {total} 题"),
    "mock.step": (" · step {n} / {total}", " · 第 {n} / {total} 步"),
    "mock.this_question": ("this question {time}", "本题 {time}"),
    "mock.left": ("{time} left", "剩余 {time}"),
    "mock.counts": ("answered {answered} / {total} · skipped {skipped} · flagged {flagged}",
                    "已答 {answered} / {total} · 跳过 {skipped} · 标记 {flagged}"),
    "mock.flagged": ("⚑ flagged for review", "⚑ 已标记待回看"),
    "mock.answered_before": ("your answer so far: {typed}", "你之前的答案：{typed}"),
    "mock.your_answer": ("your answer: {typed}", "你的答案：{typed}"),
    "mock.placeholder": ("your answer, e.g. 1.12 TB or 2039/140", "你的答案，例如 1.12 TB 或 2039/140"),
    "mock.keys": ("Enter submit · Ctrl+N skip · Ctrl+F flag · Ctrl+R go back · Esc end",
                  "回车 提交 · Ctrl+N 跳过 · Ctrl+F 标记 · Ctrl+R 回看 · Esc 结束"),
    "mock.understood": ("understood: {what}", "识别为：{what}"),
    "mock.cannot_read": ("can't read it yet: {why}", "还读不懂：{why}"),
    "mock.not_submitted": ("Not submitted: {why}", "未提交：{why}"),
    "mock.nothing_to_revisit": ("Nothing to go back to: every other question is answered and not flagged.",
                                "没有可回看的题：其余题目都已作答且未标记。"),
    "mock.goto_title": ("Go back to…", "回看哪一题？"),
    "mock.goto_skipped": ("skipped", "已跳过"),
    "mock.goto_flagged": ("flagged", "已标记"),
    "mock.goto_unseen": ("not seen yet", "未看过"),
    "mock.goto_answered": ("answered", "已作答"),
    "mock.end_title": ("End the mock now?", "现在结束模拟面试？"),
    "mock.end_body": ("{n} of {total} answers are still missing; they count as unanswered.",
                      "还有 {n} / {total} 题未作答，将计为未作答。"),
    "mock.end_body.one": ("1 of {total} answers is still missing; it counts as unanswered.",
                          "还有 1 / {total} 题未作答，将计为未作答。"),
    "mock.end_body_all": ("Every question has an answer.", "所有题目都已作答。"),
    "mock.end_submits": ("The answer you typed here ({typed}) will be submitted.", "本题已输入的答案（{typed}）将被提交。"),
    "mock.report": ("Mock report · {date} · seed {seed}", "模拟面试报告 · {date} · 种子 {seed}"),
    "mock.score": ("Score {percent:.0f} %", "得分 {percent:.0f} %"),
    "mock.tally": ("correct {correct} · by another convention {convention} · close {close} · wrong {wrong} · "
                   "unanswered {unanswered}",
                   "正确 {correct} · 按另一种约定 {convention} · 接近 {close} · 错误 {wrong} · 未作答 {unanswered}"),
    "mock.time_used": ("time used {used} of {limit}", "用时 {used} / {limit}"),
    "mock.timed_out": (" (time ran out)", "（时间用完）"),
    "mock.first": ("Your first mock: the next ones will be compared with it.", "这是你的第一次模拟面试，之后会与它比较。"),
    "mock.compare": ("Earlier mocks: {n} · last {previous:.0f} % ({delta}) · best {best:.0f} % · "
                     "average {average:.0f} %",
                     "之前的模拟面试：{n} 次 · 上次 {previous:.0f} %（{delta}）· 最好 {best:.0f} % · "
                     "平均 {average:.0f} %"),
    "mock.col.n": ("#", "#"),
    "mock.col.topic": ("Topic", "主题"),
    "mock.col.answer": ("Your answer", "你的答案"),
    "mock.col.expected": ("Expected", "正确答案"),
    "mock.col.verdict": ("Verdict", "结果"),
    "mock.col.time": ("Time", "用时"),
    "mock.misconceptions": ("Misconceptions seen: ", "出现的常见错误："),
    "mock.no_misconceptions": ("none of the known slips", "无"),
    "mock.weakest": ("Weakest topics: ", "最弱的主题："),
    "mock.no_weak_topic": ("none: full marks in every topic", "没有：每个主题都满分"),
    "mock.report_keys": ("Enter: worked solution of the selected question · p: practise the missed templates ({n}) "
                         "next session · Esc: back",
                         "回车：查看所选题的解答 · p：把 {n} 个错题题型加入下次练习 · Esc：返回"),
    "mock.report_keys_none": ("Enter: worked solution of the selected question · Esc: back",
                              "回车：查看所选题的解答 · Esc：返回"),
    "mock.queued": ("Missed templates ({n}) will come first in your next practice session.",
                    "{n} 个题型会排在下次练习的最前面。"),
    "mock.nothing_missed": ("Nothing missed: nothing to queue.", "没有错题，无需加入练习。"),
    "mock.no_mocks": ("No mock interview saved yet.", "还没有保存的模拟面试。"),
    # a mock whose save failed (drill.core.mock.MockSave; {why}: engine.storage.SaveFailed, path and cause)
    "mock.not_saved": ("Not saved: {why}. The mock's results stay here: free some space (or fix the permission), "
                       "then press w to save them.",
                       "未保存：{why}。模拟面试的结果仍在这里：腾出空间（或修正权限）后按 w 再次保存。"),
    "mock.partly_saved": ("Partly saved: {why}. Stored so far: the mock's result and {stored} of its {total} review "
                          "rows. Free some space (or fix the permission), then press w to save the rest: nothing is "
                          "stored twice.",
                          "部分已保存：{why}。已存入：模拟面试结果，以及 {total} 条复习记录中的 {stored} 条。"
                          "腾出空间（或修正权限）后按 w 保存其余部分，不会重复记录。"),
    "mock.saved_now": ("Saved: the mock's result and its {n} review rows.", "已保存：模拟面试结果及其 {n} 条复习记录。"),
    "mock.saved_now.one": ("Saved: the mock's result and its review row.", "已保存：模拟面试结果及其 1 条复习记录。"),
    "mock.still_not_saved": ("Still not saved: see the reason above.", "仍未保存：原因见上方。"),
    "mock.lose": ("Yes: what is not stored is lost. No: stay here, free some space, then press w.",
                  "是：未存入的部分将丢失。否：留在这里，腾出空间后按 w。"),
    "mock.leave_title": ("Leave without saving the mock?", "不保存模拟面试就离开？"),
    "mock.quit_title": ("Quit without saving the mock?", "不保存模拟面试就退出？"),
    "mock.lost": ("The mock interview was not saved and is lost: {why}.", "模拟面试未能保存，已丢失：{why}。"),
    "mock.lost_partly": ("The mock interview was saved only in part: {why}. Stored: its result and {stored} of its "
                         "{total} review rows; the rest is lost.",
                         "模拟面试只保存了一部分：{why}。已存入：结果，以及 {total} 条复习记录中的 {stored} 条；"
                         "其余部分已丢失。"),
    "mock.setup_not_kept": ("This setup is not remembered: {why}. The mock's results cannot be saved either until "
                            "space is freed (or the permission fixed).",
                            "未能记住这次的设置：{why}。在腾出空间（或修正权限）之前，模拟面试的结果也无法保存。"),
    "mock.not_queued": ("Not queued: {why}.", "未加入练习：{why}。"),
    "mock.solution_title": ("Question {label} · {title} (seed {seed})", "第 {label} 题 · {title}（种子 {seed}）"),
    "mock.problem": ("The problem", "题目"),
    "mock.close_hint": ("Esc or Enter to close", "按 Esc 或回车关闭"),
    "mock.unknown_template": ("This template is no longer in the bank.", "题库中已没有这个题型。"),
    "verdict.unanswered": ("Unanswered", "未作答"),
    # roofline legend
    "ridge": ("ridge point", "拐点"),
    "kernel": ("this kernel", "本算子"),
    "memory-bound": ("memory-bound", "访存受限"),
    "compute-bound": ("compute-bound", "算力受限"),
    "roofline.bound": ("({bound})", "（{bound}）"),
    # a change of a percentage (drill.core.i18n.points)
    "points": ("{shown} points", "{shown} 个百分点"),
    "points.one": ("{shown} point", "{shown} 个百分点"),
    # the formula card (drill/screens/card.py)
    "key.card": ("Card", "公式卡"),
    "key.card_start": ("Start drilling", "开始练习"),
    "card.title": ("Formula card · {title}", "公式卡 · {title}"),
    "card.first": ("New template: read its card first, then drill it. Reading the card is not a review.",
                   "新题型：先读公式卡，再练习。读卡不计入复习。"),
    "card.leech": ("A leech: failed 6 times or more. Read its card again before this drill (not a review).",
                   "顽固题：已失败 6 次及以上。练习前再读一遍公式卡（读卡不计入复习）。"),
    "card.keys_first": ("Enter: start drilling · ↑↓ PgUp PgDn: scroll", "回车：开始练习 · ↑↓ PgUp PgDn：滚动"),
    "card.keys": ("Esc or Enter: back · ↑↓ PgUp PgDn: scroll", "Esc 或回车：返回 · ↑↓ PgUp PgDn：滚动"),
    "help.card": ("The formula card of the current template: f2 in practice (c after an answer), c in Browse, "
                  "`drill card TEMPLATE` in the shell. A new template shows its card before its first problem.",
                  "当前题型的公式卡：练习中按 f2（作答后也可按 c），题库中按 c，命令行用 `drill card TEMPLATE`。"
                  "新题型在第一道题之前先显示公式卡。"),
    "help.sources": ("Sources (also `drill sources`)", "出处（也可用 `drill sources` 查看）"),
}


def t(key: str, lang: str = EN, /, **fmt) -> str:
    """The string ``key`` in ``lang`` (``en`` or ``zh``), formatted with ``fmt``; with ``n=1``, the
    string ``key.one`` when there is one (the singular: "1 question", not "1 questions")."""
    s = _pick(STRINGS[singular(STRINGS, key, fmt)], lang)
    return s.format(**fmt) if fmt else s


def future_dated(e, source: object, lang: str = EN) -> str:
    """Why an import was refused (``engine.storage.FutureDated`` ``e``): what it dates in the future, named."""
    from engine.checks import SKEW, listed

    more = t("import.future_more", lang)
    what = [t(f"import.future_{kind}", lang, names=listed(names, more))
            for kind, names in (("reviews", e.reviews), ("states", e.states), ("mocks", e.mocks)) if names]
    return t("import.future", lang, source=source, days=SKEW.days, now=f"{e.now:%Y-%m-%dT%H:%M:%SZ}",
             what=pick(lang, "; ", "；").join(what))


def left_out(n: int, lang: str = EN) -> str:
    """What ``drill import --skip-future`` left out: ``n`` rows, states and mocks dated in the future."""
    from engine.checks import SKEW

    return t("import.left_out", lang, n=n, days=SKEW.days)


def singular(table: Mapping[str, object], key: str, fmt: Mapping[str, object]) -> str:
    """``key.one`` if ``fmt`` counts one (``n=1``) and ``table`` has it, else ``key``."""
    return f"{key}.one" if fmt.get("n") == 1 and f"{key}.one" in table else key


def points(delta: float, lang: str = EN) -> str:
    """A change of a percentage, with its unit and a true minus sign: ``+5 points``, ``−100 points``."""
    n = round(delta)
    shown = f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "±0"
    return t("points", lang, n=abs(n), shown=shown)


def _pick(pair: tuple[str, str], lang: str) -> str:
    return pick(lang, *pair)


def topic_name(topic: str, lang: str = EN) -> str:
    """A topic's name in ``lang`` (the bank's TOPIC_NAMES; an unknown topic as it is)."""
    from question_bank.topics import TOPIC_NAMES

    return _pick(TOPIC_NAMES.get(topic, (topic, topic)), lang)


def template_title(template, lang: str = EN) -> str:
    """A question_bank Template's title in ``lang``."""
    return template.title_in(lang)


def placeholder(expected, lang: str, number: str) -> str:
    """The answer box's hint for what ``expected`` (an engine.grading.Expected) takes: its kind's
    (engine.kinds: one of its choices, a formula, a layout), else the screen's for a number (the string
    ``number``)."""
    said = expected.answer_kind.placeholder(expected)
    return said.text(lang) if said is not None else t(number, lang)


def key_name(key: str | None, lang: str, table: Mapping[str, tuple[str, str]] | None = None) -> str | None:
    """The words for ``key`` in ``lang``: from :data:`STRINGS`, else from ``table``; None if neither has it."""
    if key is None:  # a binding without an id
        return None
    for words in (STRINGS, table or {}):
        if key in words:
            return _pick(words[key], lang)
    return None


def when(day: date | None, today: date, lang: str = EN) -> str:
    """``today``, ``tomorrow``, ``in 6 days (2026-12-05)``; ``now`` for an overdue date."""
    if day is None:
        return ""
    n = (day - today).days
    if n < 0:
        return t("overdue", lang)
    if n == 0:
        return t("today", lang)
    if n == 1:
        return t("tomorrow", lang)
    return t("in_days", lang, n=n, date=day.isoformat())
