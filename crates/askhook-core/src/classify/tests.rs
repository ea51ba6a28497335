//! The classifier's own tests: every example line of every lexicon, and properties that hold
//! for every one-way example (invisible characters, case, markup and extra options never hide a
//! one-way door; no input panics). The measured corpora (`tests/corpus/doors/`) run through the
//! real hook in `tests/it/corpus.rs`.

use proptest::prelude::*;

use super::{classify, Door, QuestionText};

mod examples {
    include!(concat!(env!("OUT_DIR"), "/door_examples.rs"));
}

/// Classify an example line: `[header] question || label || label …` (the header is optional).
fn classify_example(text: &str) -> super::Verdict {
    let mut parts = text.split(" || ");
    let question = parts.next().unwrap_or("");
    let (header, question) = question
        .strip_prefix('[')
        .and_then(|rest| rest.split_once("] "))
        .unwrap_or(("", question));
    let labels: Vec<(&str, &str)> = parts.map(|l| (l, "")).collect();
    classify(&QuestionText {
        question,
        header,
        options: &labels,
    })
}

fn expected(mark: char) -> Door {
    match mark {
        '+' => Door::OneWay,
        '-' => Door::TwoWay,
        _ => Door::Unknown,
    }
}

#[test]
fn every_lexicon_example_classifies_as_written() {
    let failures: Vec<String> = examples::EXAMPLES
        .iter()
        .filter_map(|&(file, line, mark, text)| {
            let v = classify_example(text);
            let want = expected(mark);
            (v.door != want).then(|| {
                let rules: Vec<&str> = v.evidence.iter().map(|e| e.rule.as_str()).collect();
                let cleared: Vec<&str> = v.cleared.iter().map(|e| e.rule.as_str()).collect();
                format!(
                    "{file}:{line}: {text:?}: want {}, got {} (evidence {rules:?}; set aside {cleared:?})",
                    want.as_str(),
                    v.door.as_str()
                )
            })
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} lexicon examples:\n{}",
        failures.len(),
        examples::EXAMPLES.len(),
        failures.join("\n")
    );
}

#[test]
fn every_language_has_examples_on_both_sides() {
    for lang in super::lexicon::LEXICON_LANGS {
        let file = format!("{lang}.txt");
        let of = |mark: char| {
            examples::EXAMPLES
                .iter()
                .filter(|e| e.0 == file && e.2 == mark)
                .count()
        };
        if examples::EXAMPLES.iter().any(|e| e.0 == file) {
            assert!(
                of('+') >= 3 && of('-') >= 3,
                "{file}: {} one-way and {} two-way examples",
                of('+'),
                of('-')
            );
        }
    }
}

fn door(question: &str) -> Door {
    classify(&QuestionText {
        question,
        header: "",
        options: &[],
    })
    .door
}

#[test]
fn traditional_chinese_reads_like_simplified() {
    use super::fold::fold_key;
    // Taiwan and Hong Kong write Traditional characters; the fold meets them with the
    // Simplified lexicon, character by character.
    assert_eq!(fold_key("刪除資料庫"), "删除资料库");
    assert_eq!(fold_key("裡面的檔案"), "里面的档案");
    // Kana, Hangul and Simplified text are left as they are.
    assert_eq!(fold_key("本番のデータを削除"), "本番のデータを削除");
    assert_eq!(fold_key("운영 데이터베이스"), "운영 데이터베이스");
    assert_eq!(fold_key("删除数据库"), "删除数据库");
    for (traditional, simplified) in [
        ("要刪除正式環境的資料庫嗎？", "要删除正式环境的资料库吗？"),
        (
            "要強制推送到遠端的 main 分支嗎？",
            "要强制推送到远端的 main 分支吗？",
        ),
        ("要把這個倉庫設為公開嗎？", "要把这个仓库设为公开吗？"),
        (
            "要撤銷正式環境的 API 金鑰嗎？",
            "要撤销正式环境的 API 金钥吗？",
        ),
    ] {
        assert_eq!(door(traditional), Door::OneWay, "{traditional}");
        assert_eq!(door(traditional), door(simplified), "{traditional}");
    }
    for question in [
        "要更新 README 的錯字嗎？",
        "要在本機刪除 node_modules 快取嗎？",
    ] {
        assert_eq!(door(question), Door::TwoWay, "{question}");
    }
}

#[test]
fn a_list_of_objects_stays_with_its_verb() {
    // A comma, `、` or `and` ends the clause only when a new action follows.
    for q in [
        "Delete the cache and the database?",
        "Delete the build cache, the logs and the users table?",
        "删除缓存、日志和用户表？",
        "キャッシュ、ログ、ユーザーテーブルを削除しますか？",
        "¿Borro la caché, la tabla de usuarios y los logs?",
        "Apago o cache, os logs e a tabela de usuários?",
        "Lösche ich den Cache, die Logs und die Benutzertabelle?",
        "Je supprime le cache, les logs et la table des utilisateurs ?",
        "Удалить кэш, логи и таблицу пользователей?",
    ] {
        assert_eq!(door(q), Door::OneWay, "{q}");
    }
    for q in [
        "Back up the database and clear the build cache?",
        "Remove the unused import, then run the tests?",
        "Clear the cache, rebuild, and restart the dev server?",
    ] {
        assert_eq!(door(q), Door::TwoWay, "{q}");
    }
}

#[test]
fn a_sentence_ends_after_code() {
    let q = "Ran it with `--dry-run`. Now run it against the production database?";
    assert_eq!(door(q), Door::OneWay);
}

#[test]
fn a_language_without_a_lexicon_is_never_read_two_way_when_it_destroys() {
    for q in [
        "Vuoi eliminare il database di produzione?",
        "Cancello la tabella degli utenti in produzione?",
        "Verwijder ik de productiedatabase?",
        "Czy mam usunąć bazę danych produkcyjną?",
        "Üretim veritabanını silmemi ister misin?",
        "Видалити базу даних на продакшені?",
    ] {
        assert_ne!(door(q), Door::TwoWay, "{q}");
    }
}

#[test]
fn verdicts_say_why() {
    let v = classify(&QuestionText {
        question: "Drop the `orders` table in production?",
        header: "Cleanup",
        options: &[("Drop it (Recommended)", "Frees 40 GB"), ("Keep it", "")],
    });
    assert_eq!(v.door, Door::OneWay);
    assert_eq!(v.language, "en");
    let rule = v.rule.as_deref().unwrap_or_default();
    assert!(rule.starts_with("drop:"), "{rule}");
    let first = &v.evidence[0];
    assert_eq!(
        &"Drop the `orders` table in production?"[first.start as usize..first.end as usize],
        "Drop"
    );

    let v = classify(&QuestionText {
        question: "Vuoi che aggiorni la documentazione del progetto?",
        header: "",
        options: &[],
    });
    assert_eq!(v.door, Door::Unknown);
    assert_eq!(v.rule.as_deref(), Some("unknown-language:it"));

    let v = classify(&QuestionText {
        question: "Which test runner should we use?",
        header: "Tests",
        options: &[("Vitest (Recommended)", "Fast"), ("Jest", "Familiar")],
    });
    assert_eq!(v.door, Door::TwoWay);
    assert_eq!(v.rule, None);
}

#[test]
fn terse_options_do_not_make_a_readable_question_unreadable() {
    // Bare nouns in labels and descriptions are how agents write options; the question is
    // the sentence that shows the text is English.
    let verdict = |question: &str| {
        classify(&QuestionText {
            question,
            header: "Typeface",
            options: &[
                ("Serif", "Classic glyphs, narrow spacing."),
                ("Monospace", "Fixed glyph widths."),
                ("Humanist", "Rounded strokes."),
            ],
        })
    };
    assert_eq!(verdict("Which typeface for headings?").door, Door::TwoWay);
    // Words no covered lexicon knows, in the question too, stay unknown.
    let v = verdict("Kaiken otsikkotyypin valinta?");
    assert_eq!(v.door, Door::Unknown, "{v:?}");
}

#[test]
fn latin_names_in_cjk_text_do_not_make_it_unreadable() {
    let options = [
        ("pino", "高速、JSON 出力"),
        ("winston", "transport が豊富"),
        ("bunyan", "CLI viewer 付き"),
    ];
    let v = classify(&QuestionText {
        question: "ログ出力のライブラリはどれを使いますか？",
        header: "ログ",
        options: &options,
    });
    assert_eq!(v.door, Door::TwoWay, "{v:?}");
}

#[test]
fn too_long_is_unknown() {
    let long = "Which color should the button be? ".repeat(200);
    let v = classify(&QuestionText {
        question: &long,
        header: "",
        options: &[],
    });
    assert_eq!(
        (v.door, v.rule.as_deref()),
        (Door::Unknown, Some(super::TOO_LONG))
    );
}

fn one_way_example() -> impl Strategy<Value = &'static str> {
    let cases: Vec<&'static str> = examples::EXAMPLES
        .iter()
        .filter(|e| e.2 == '+' && !e.3.contains(" || "))
        .map(|e| e.3)
        .collect();
    prop::sample::select(cases)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn invisible_characters_never_hide_a_one_way_door(text in one_way_example(), at in any::<prop::sample::Index>(), which in 0..4usize) {
        let invisible = ['\u{200B}', '\u{200D}', '\u{2060}', '\u{FEFF}'][which];
        let chars: Vec<char> = text.chars().collect();
        let i = at.index(chars.len() + 1);
        let mixed: String = chars[..i].iter().chain(std::iter::once(&invisible)).chain(&chars[i..]).collect();
        prop_assert_ne!(classify_example(&mixed).door, Door::TwoWay, "{:?}", mixed);
    }

    #[test]
    fn case_never_hides_a_one_way_door(text in one_way_example(), mask in any::<u64>()) {
        let flipped: String = text
            .chars()
            .enumerate()
            .flat_map(|(i, c)| {
                // Whole uppercase forms: `ß` is `SS`, not `S`.
                let upper: Vec<char> = if mask >> (i % 64) & 1 == 1 { c.to_uppercase().collect() } else { vec![c] };
                upper
            })
            .collect();
        prop_assert_ne!(classify_example(&flipped).door, Door::TwoWay, "{:?}", flipped);
    }

    #[test]
    fn markdown_never_hides_a_one_way_door(text in one_way_example(), wrap in 0..4usize) {
        let wrapped = match wrap {
            0 => format!("**{text}**"),
            1 => format!("> {text}"),
            2 => format!("- {text}"),
            _ => format!("### {text}"),
        };
        prop_assert_ne!(classify_example(&wrapped).door, Door::TwoWay, "{:?}", wrapped);
    }

    // Junk options: printable ASCII without letters. A word an option really says can
    // legitimately place the question's action (`Deploy the pricing page? || QA`): CI once
    // drew `A;QA{a`, which names the QA environment, not noise.
    #[test]
    fn extra_options_never_hide_a_one_way_door(text in one_way_example(), extra in "[ -@\\[-`{-~]{0,40}") {
        let v = classify(&QuestionText { question: text, header: "", options: &[(extra.as_str(), extra.as_str())] });
        prop_assert_ne!(v.door, Door::TwoWay, "{:?} + {:?}", text, extra);
    }

    #[test]
    fn never_panics(fields in proptest::collection::vec(any::<String>(), 0..6)) {
        let options: Vec<(&str, &str)> = fields.chunks(2).map(|c| (c[0].as_str(), c.get(1).map_or("", String::as_str))).collect();
        let _ = classify(&QuestionText { question: fields.first().map_or("", String::as_str), header: "", options: &options });
    }
}

/// Every word a lexicon term spells out whole is a word the tokenizer can produce: a term
/// whose word the tokenizer always cuts or folds otherwise (`we're` read as `re`, `team's` as
/// `team`) would never match, and nothing else would say so.
#[test]
fn every_exact_term_word_is_a_token_the_tokenizer_produces() {
    use super::lexicon::{Elem, TERMS};
    use super::text::{tokenize, Letters, Script};
    let mut dead = Vec::new();
    for term in TERMS {
        for elem in term.elems() {
            let Elem::Exact(word) = elem else { continue };
            let word = word.get();
            // Words, not symbols or paths (the tokenizer reads those in context).
            if !word.chars().all(|c| c.is_alphabetic() || c == '\'') {
                continue;
            }
            let mut tokens = Vec::new();
            tokenize(word, 0, &mut tokens, &mut Letters::default());
            // Han, Kana and Hangul words are cut by the dictionary they are part of.
            if tokens
                .iter()
                .any(|t| matches!(t.script, Script::Cjk | Script::Hangul))
            {
                continue;
            }
            let keys: Vec<&str> = tokens.iter().map(|t| t.key.as_str()).collect();
            if keys != [word] {
                dead.push(format!("{}: {word:?} reads as {keys:?}", term.source()));
            }
        }
    }
    assert!(
        dead.is_empty(),
        "terms no text can match:\n{}",
        dead.join("\n")
    );
}

/// Amounts and numbers as people write them: a currency sign before or after the digits, with
/// or without a space (`150 €`, `R$ 300`), and thousands grouped by a space (`4 200`) are one
/// token; a short flag keeps its capitals (`-D` is not `-d`).
#[test]
fn amounts_grouped_numbers_and_flag_capitals_read_as_written() {
    use super::text::{tokenize, Kind, Letters};
    let read = |text: &str| {
        let mut tokens = Vec::new();
        tokenize(text, 0, &mut tokens, &mut Letters::default());
        tokens
    };
    let keys = |text: &str| read(text).iter().map(|t| t.key.clone()).collect::<Vec<_>>();
    assert_eq!(keys("les 150 € à chacun"), ["les", "€150", "a", "chacun"]);
    assert_eq!(keys("devolvo os R$ 300"), ["devolvo", "os", "$300"]);
    assert_eq!(keys("send $ 20 back"), ["send", "$20", "back"]);
    assert_eq!(
        keys("sur les 4 200 valideurs"),
        ["sur", "les", "4200", "valideurs"]
    );
    // Two numbers in a list stay two; a group needs three digits after the space.
    assert_eq!(keys("ports 80 8080"), ["ports", "80", "8080"]);
    assert_eq!(keys("options 1 2 3"), ["options", "1", "2", "3"]);
    let flags = read("git branch -D old -d new");
    let flag = |key: &str| flags.iter().find(|t| t.kind == Kind::Flag && t.key == key);
    let caps: Vec<u8> = flags
        .iter()
        .filter(|t| t.kind == Kind::Flag)
        .map(|t| t.caps)
        .collect();
    assert_eq!(caps, [1, 0]);
    assert!(flag("d").is_some());
}

/// An option that names only where the question's action would happen is that action done
/// there when the question asks which one or where; under a yes/no question, an option that
/// compares with production (`Keep it : same as production`) is not.
#[test]
fn a_dangerous_target_offered_as_an_option_counts_only_when_asked_for() {
    let asked = classify(&QuestionText {
        question: "The load test is done. Which context should I run `kubectl delete namespace loadtest` against?",
        header: "",
        options: &[
            ("kind-local (Recommended)", "Your local kind cluster."),
            ("gke-eu", "This cluster serves all production traffic."),
        ],
    });
    assert_eq!(asked.door, Door::OneWay);
    let proposed = classify(&QuestionText {
        question: "Delete the loadtest namespace on your local kind cluster?",
        header: "",
        options: &[
            ("Delete (Recommended)", "Only the kind cluster."),
            ("Keep it", "Same as production."),
        ],
    });
    assert_eq!(proposed.door, Door::TwoWay);
}

/// A constant named for a secret (`SENDGRID_API_KEY`) is a credential; a function that loads
/// one (`get_api_key`) is code.
#[test]
fn secrets_named_by_their_constant_are_credentials() {
    let ask = |question: &str| {
        classify(&QuestionText {
            question,
            header: "",
            options: &[("Yes (Recommended)", ""), ("No", "")],
        })
    };
    let leaked = ask("`SENDGRID_API_KEY` showed up in the build log. Revoke it now?");
    assert_eq!(leaked.door, Door::OneWay);
    assert_eq!(leaked.rule.as_deref(), Some("revoke:credential"));
    assert_eq!(
        ask("Rename `get_api_key` to `load_api_key` in the config module?").door,
        Door::TwoWay
    );
}

/// A privilege named by the header is what a vague go-ahead grants: with no action the lexicons
/// know, the question is unknown (it reaches the human). Named only in an option's description
/// (`Admin intégré`), it is a feature of the software being chosen.
#[test]
fn a_privilege_in_the_header_makes_a_vague_go_ahead_unknown() {
    let vague = classify(&QuestionText {
        question: "@jkoch möchte Tokens und Secrets selbst verwalten. Soll ich das einrichten?",
        header: "Owner-Rolle",
        options: &[("Ja, einrichten (Empfohlen)", ""), ("Nein", "")],
    });
    assert_eq!(vague.door, Door::Unknown);
    assert_eq!(vague.rule.as_deref(), Some("danger-without-a-known-action"));
    let feature = classify(&QuestionText {
        question: "Quel framework pour la nouvelle API interne ?",
        header: "Framework",
        options: &[
            ("FastAPI (Recommandé)", "Typage, OpenAPI généré."),
            ("Django REST", "Admin intégré."),
        ],
    });
    assert_eq!(feature.door, Door::TwoWay);
}

/// A go-ahead that only points back to an earlier agreement cannot be read: what it does was
/// said in a conversation the classifier never saw, so it is unknown and reaches the human. A
/// question that names its action, or the code and version it is about, is read as usual.
#[test]
fn a_go_ahead_that_only_points_to_an_earlier_agreement_is_unknown() {
    for (question, header) in [
        ("Делаем, как договорились?", "Передача"),
        (
            "Aquela VPC que comentamos antes, faço o que a gente combinou?",
            "VPC",
        ),
        (
            "All checks are green. Should I go ahead as we agreed?",
            "Next",
        ),
    ] {
        let v = classify(&QuestionText {
            question,
            header,
            options: &[("Yes", ""), ("Later (Recommended)", "")],
        });
        assert_eq!(v.door, Door::Unknown, "{question}");
        assert_eq!(
            v.rule.as_deref(),
            Some(super::DEFERS_TO_AGREEMENT),
            "{question}"
        );
    }
    let named = classify(&QuestionText {
        question: "Обновить `fastapi` до 0.115, как обсуждали? Пока только в локальной ветке.",
        header: "fastapi",
        options: &[("Обновить (Рекомендуется)", ""), ("Подождать", "")],
    });
    assert_eq!(named.door, Door::TwoWay);
}
