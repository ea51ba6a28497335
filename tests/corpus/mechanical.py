#!/usr/bin/env python3
"""Make families-mechanical.jsonl: the mechanical rewordings question families are built for.

For the `a` side of every same-decision pair of families.jsonl, `b` is the same question asked
again by an agent that changed only what a fixed prompt or skill changes between runs: the
options reordered, the recommendation moved to another option, the numbers in it changed, the
politeness of the opening ("Should I" / "Should we" / "Do you want me to" / "Can I"), "Which"
for "What", letter case, spacing and the final punctuation. Deterministic: run it again and the
file is byte-identical. Paraphrases with other words are not here: those are families.jsonl's
same-decision pairs, written blind.
"""
import copy
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
MARK = re.compile(r"\s*[\(（]\s*(Recommended|推荐|推奨|おすすめ|권장|추천|Recomendado|Recomendada|"
                  r"Recommandé|Recommandée|Empfohlen|Рекомендуется)\s*[\)）]")
OPENINGS = [("Should I ", "Should we "), ("Should I ", "Do you want me to "),
            ("Should I ", "Can I "), ("Which ", "What "), ("What ", "Which ")]


def move_recommendation(q):
    labels = [o["label"] for o in q["options"]]
    marked = [i for i, l in enumerate(labels) if MARK.search(l)]
    if len(marked) != 1 or len(labels) < 2:
        return
    i = marked[0]
    word = MARK.search(labels[i]).group(0)
    q["options"][i]["label"] = MARK.sub("", labels[i])
    j = (i + 1) % len(labels)
    q["options"][j]["label"] = q["options"][j]["label"] + word


def change_numbers(text, n):
    return re.sub(r"\d+", lambda m: str(int(m.group(0)) + 3 + n % 5), text)


def reword(a, n, lang):
    b = copy.deepcopy(a)
    steps = [n % 3 == 0, n % 3 == 1, True, n % 2 == 0]
    if steps[0]:
        b["options"].reverse()
    if steps[1]:
        move_recommendation(b)
    if steps[2]:
        b["question"] = change_numbers(b["question"], n)
        for o in b["options"]:
            o["label"] = change_numbers(o["label"], n)
    text = b["question"]
    if lang == "en":
        for old, new in OPENINGS[n % len(OPENINGS):] + OPENINGS[:n % len(OPENINGS)]:
            if text.startswith(old):
                text = new + text[len(old):]
                break
    if steps[3]:
        text = text.lower().replace(" ", "  ", 1)
    else:
        text = text.rstrip("?？") + ("?" if n % 5 else "")
    b["question"] = text
    b["header"] = b["header"].upper()
    return b


def main():
    out = []
    with open(os.path.join(HERE, "families.jsonl")) as f:
        pairs = [json.loads(line) for line in f if line.strip()]
    for n, p in enumerate(x for x in pairs if x["same"]):
        out.append({"id": "mech-%03d" % (n + 1), "same": True, "lang": p["lang"],
                    "category": p["category"], "note": "mechanical rewording of %s.a" % p["id"],
                    "a": p["a"], "b": reword(p["a"], n, p["lang"])})
    with open(os.path.join(HERE, "families-mechanical.jsonl"), "w") as f:
        for p in out:
            f.write(json.dumps(p, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
