//! `ketama simulate --plot FILE.svg` through the real binary, on a small fleet and key set:
//! with `--algorithms A,B,...` the comparison's figures and a well-formed SVG with one line
//! series per algorithm; on the hash experiment its own figures (hit rate per hash beside the
//! ideal, keys per node before and after); one-line errors.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;

use crate::common;

const ALL: &str =
    "jump,guava,jumpback,fliphash,maglev,rendezvous,anchor,memento,jumpback-anchor,libketama";

fn ketama(args: &[&str]) -> Output {
    common::ketama_stdin(args, None)
}

fn ok(args: &[&str]) -> String {
    let out = ketama(args);
    // No progress bar (nor anything else) when stderr is not a terminal.
    assert!(
        out.stderr.is_empty(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    common::stdout_of(args, out)
}

fn fails(args: &[&str], needle: &str) {
    let out = ketama(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err}");
}

fn out_dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A strict little XML well-formedness check (what an SVG needs): one root element, every
/// start tag closed in order, attribute values quoted, no stray `<` or `&` in text.
fn check_xml(doc: &str) -> Result<String, String> {
    let mut stack: Vec<String> = Vec::new();
    let mut root: Option<String> = None;
    let mut rest = doc.trim_start();
    let entity_ok = |s: &str| {
        let mut t = s;
        while let Some(i) = t.find('&') {
            let tail = &t[i + 1..];
            let end = tail.find(';').ok_or("unterminated entity")?;
            let name = &tail[..end];
            let known = ["amp", "lt", "gt", "quot", "apos"].contains(&name)
                || (name.starts_with('#') && name.len() > 1);
            if !known {
                return Err(format!("unknown entity &{name};"));
            }
            t = &tail[end + 1..];
        }
        Ok::<(), String>(())
    };
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("<?") {
            let end = after.find("?>").ok_or("unterminated <?")?;
            rest = &after[end + 2..];
        } else if let Some(after) = rest.strip_prefix("<!--") {
            let end = after.find("-->").ok_or("unterminated comment")?;
            rest = &after[end + 3..];
        } else if let Some(after) = rest.strip_prefix("</") {
            let end = after.find('>').ok_or("unterminated end tag")?;
            let name = after[..end].trim();
            match stack.pop() {
                Some(open) if open == name => {}
                other => return Err(format!("</{name}> closes {other:?}")),
            }
            rest = &after[end + 1..];
        } else if let Some(after) = rest.strip_prefix('<') {
            // A start tag: name, then name="value" pairs, then > or />.
            let name_end = after
                .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
                .ok_or("unterminated tag")?;
            let name = &after[..name_end];
            if name.is_empty()
                || !name
                    .chars()
                    .all(|c| c.is_alphanumeric() || "-_:".contains(c))
            {
                return Err(format!("bad tag name {name:?}"));
            }
            let mut t = after[name_end..].trim_start();
            let empty = loop {
                if let Some(x) = t.strip_prefix("/>") {
                    t = x;
                    break true;
                }
                if let Some(x) = t.strip_prefix('>') {
                    t = x;
                    break false;
                }
                let eq = t
                    .find('=')
                    .ok_or(format!("<{name}>: attribute without ="))?;
                let attr = t[..eq].trim();
                if attr.is_empty() || attr.contains(char::is_whitespace) {
                    return Err(format!("<{name}>: bad attribute {attr:?}"));
                }
                let v = t[eq + 1..].trim_start();
                let q = v.chars().next().ok_or("attribute value missing")?;
                if q != '"' && q != '\'' {
                    return Err(format!("<{name}>: unquoted {attr}"));
                }
                let close = v[1..].find(q).ok_or("unterminated attribute value")?;
                let value = &v[1..1 + close];
                if value.contains('<') {
                    return Err(format!("<{name}>: '<' in {attr}"));
                }
                entity_ok(value)?;
                t = v[close + 2..].trim_start();
            };
            if stack.is_empty() {
                if root.is_some() {
                    return Err("a second root element".into());
                }
                root = Some(name.to_string());
            }
            if !empty {
                stack.push(name.to_string());
            }
            rest = t;
        } else {
            let end = rest.find('<').unwrap_or(rest.len());
            let text = &rest[..end];
            if stack.is_empty() && !text.trim().is_empty() {
                return Err(format!("text outside the root: {:?}", text.trim()));
            }
            entity_ok(text)?;
            rest = &rest[end..];
        }
    }
    if !stack.is_empty() {
        return Err(format!("unclosed {stack:?}"));
    }
    root.ok_or_else(|| "no element".to_string())
}

#[test]
fn xml_checker_catches_bad_documents() {
    assert_eq!(
        check_xml("<svg a=\"1\"><g><t>x &amp; y</t></g><r/></svg>").unwrap(),
        "svg"
    );
    for bad in [
        "<svg><g></svg>",
        "<svg>",
        "<svg a=1></svg>",
        "<svg></svg><svg></svg>",
        "<svg>a & b</svg>",
        "<svg></g>",
        "x<svg></svg>",
    ] {
        assert!(check_xml(bad).is_err(), "{bad}");
    }
}

/// The text of every `<text>` element.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|s| {
            let body = &s[s.find('>')? + 1..];
            Some(body[..body.find("</text>")?].trim().to_string())
        })
        .collect()
}

/// The stroke colour of every data line (stroke-width 2, not black).
fn series_strokes(svg: &str) -> Vec<String> {
    svg.split("<polyline")
        .skip(1)
        .filter(|s| s.contains("stroke-width=\"2\""))
        .filter_map(|s| {
            let at = s.find("stroke=\"")? + 8;
            Some(s[at..at + s[at..].find('"')?].to_string())
        })
        .filter(|c| c != "#000000")
        .collect()
}

#[test]
fn every_algorithm_compared_and_plotted() {
    let dir = out_dir("simulate-plot");
    let svg_path = dir.join("out.svg");
    let svg_arg = svg_path.to_str().unwrap();
    let text = ok(&[
        "simulate",
        "--format",
        "json",
        "--algorithms",
        ALL,
        "--nodes",
        "20",
        "--key-count",
        "20000",
        "--plot",
        svg_arg,
    ]);
    let v: Value = serde_json::from_str(&text).unwrap();
    let names: Vec<&str> = ALL.split(',').collect();
    let results = v["results"].as_array().unwrap();
    let shown: Vec<&str> = results
        .iter()
        .map(|r| r["algorithm"].as_str().unwrap())
        .collect();
    assert_eq!(shown, names);
    let changes: Vec<&str> = v["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(changes, ["add 2", "remove 2", "fail 1", "weighted"]);
    let ideal_fail = v["changes"][2]["ideal_moved"].as_f64().unwrap();
    assert_eq!(ideal_fail, 1.0 / 20.0);
    for r in results {
        let name = r["algorithm"].as_str().unwrap();
        let loads: Vec<u64> = r["loads"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        assert_eq!(loads.len(), 20, "{name}");
        assert_eq!(loads.iter().sum::<u64>(), 20_000, "{name}");
        let p = r["peak_to_mean"].as_f64().unwrap();
        assert!((1.0..1.5).contains(&p), "{name}: peak/mean {p}");
        assert!(r["bytes_per_server"].as_f64().unwrap() > 0.0, "{name}");
        let fail = r["changes"][2]["moved"].as_f64().unwrap();
        match name {
            // Exactly the failed server's keys (index 10) move.
            "anchor" | "memento" | "jumpback-anchor" => {
                assert_eq!(fail, loads[10] as f64 / 20_000.0, "{name}")
            }
            // Swap-remove: the failed server's keys and most of the last server's.
            "jump" | "guava" | "jumpback" | "fliphash" => {
                assert!(fail > 1.6 * ideal_fail, "{name}: {fail}")
            }
            _ => assert!(fail < 1.5 * ideal_fail, "{name}: {fail}"),
        }
        let weighted = r["changes"][3]["moved"].as_f64().unwrap();
        assert_eq!(
            weighted > 0.0,
            ["rendezvous", "libketama"].contains(&name),
            "{name}: weighted moved {weighted}"
        );
    }

    let svg = std::fs::read_to_string(&svg_path).unwrap();
    assert_eq!(check_xml(&svg), Ok("svg".to_string()));
    let labels = texts(&svg);
    for n in &names {
        assert!(labels.iter().any(|t| t == n), "no legend entry {n}");
    }
    for c in &changes {
        let label = format!("{c}: ideal ");
        assert!(
            labels.iter().any(|t| t.starts_with(&label)),
            "no group label {c}"
        );
    }
    let strokes = series_strokes(&svg);
    assert_eq!(strokes.len(), names.len(), "one load line per algorithm");
    assert_eq!(
        strokes.iter().collect::<BTreeSet<_>>().len(),
        names.len(),
        "distinct colours"
    );
    // Python's parser agrees that the file is well-formed, where python3 is installed.
    if let Ok(out) = std::process::Command::new("python3")
        .args([
            "-c",
            "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])",
            svg_arg,
        ])
        .output()
    {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn table_csv_and_single_algorithm() {
    let t = ok(&[
        "simulate",
        "--algorithms",
        "anchor,jump",
        "--nodes",
        "8",
        "--key-count",
        "3000",
        "--add",
        "1",
    ]);
    assert!(t.contains("peak/mean") && t.contains("add 1 moved") && t.contains("remove 1 moved"));
    assert!(t.lines().any(|l| l.starts_with("anchor ")), "{t}");
    let csv = ok(&[
        "simulate",
        "--algorithms",
        "memento",
        "--nodes",
        "8",
        "--key-count",
        "3000",
        "-f",
        "csv",
    ]);
    assert_eq!(csv.lines().count(), 1 + 4, "{csv}");
    assert!(csv.starts_with("algorithm,peak_to_mean,"));
    // A profile is the hash experiment.
    assert!(ok(&["simulate", "-p", "libketama", "-H", "md5"]).contains("hit rate"));
    // A repeated flag adds to the list.
    let j = ok(&[
        "simulate",
        "--algorithms",
        "jump",
        "--algorithms",
        "anchor",
        "--nodes",
        "4",
        "--key-count",
        "100",
        "-f",
        "json",
    ]);
    let v: Value = serde_json::from_str(&j).unwrap();
    assert_eq!(v["results"].as_array().unwrap().len(), 2, "{j}");
}

#[test]
fn the_experiment_plots_its_own_figures() {
    let dir = out_dir("simulate-experiment-plot");
    let svg_path = dir.join("hit.svg");
    let svg_arg = svg_path.to_str().unwrap();
    let hashes = ["KETAMA_HASH", "FNV1_32_HASH", "CRC32_HASH"];
    let text = ok(&[
        "simulate",
        "--hash",
        &hashes.join(","),
        "--format",
        "json",
        "--plot",
        svg_arg,
    ]);
    // The output is the experiment's, not the algorithm comparison's.
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["profile"], "xmemcached");
    assert!(v["ideal_hit_rate"].as_f64().is_some());
    assert!(v.get("changes").is_none(), "{text}");
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    assert_eq!(check_xml(&svg), Ok("svg".to_string()));
    let labels = texts(&svg);
    let has = |t: &str| labels.iter().any(|l| l.contains(t));
    assert!(has("Hit rate after nodes 10 -&gt; 12"), "{labels:?}");
    assert!(has("the ideal 83.33%"), "{labels:?}");
    assert!(has("Keys per node before (10 nodes)"), "{labels:?}");
    assert!(has("Keys per node after (12 nodes)"), "{labels:?}");
    for (h, r) in hashes.iter().zip(v["results"].as_array().unwrap()) {
        // Under its bar and in both legends.
        assert_eq!(
            labels.iter().filter(|l| l == h).count(),
            3,
            "{h}: {labels:?}"
        );
        let rate = format!("{:.2}%", r["hit_rate"].as_f64().unwrap() * 100.0);
        assert!(labels.contains(&rate), "{h}: no label {rate}");
    }
    assert!(!has("keys / mean"), "not the algorithm comparison");
    // One line per hash in each of the two panels, the same colour in both.
    let strokes = series_strokes(&svg);
    assert_eq!(strokes.len(), 2 * hashes.len(), "{strokes:?}");
    assert_eq!(strokes[..hashes.len()], strokes[hashes.len()..]);
    assert_eq!(
        strokes.iter().collect::<BTreeSet<_>>().len(),
        hashes.len(),
        "distinct colours"
    );
    // A bad path fails before anything is computed, as with --algorithms.
    fails(
        &["simulate", "--plot", "/nonexistent-dir/x.svg"],
        "--plot /nonexistent-dir/x.svg: cannot write",
    );
}

#[test]
fn algorithm_errors() {
    let base = ["simulate", "--key-count", "100", "--nodes", "4"];
    let with = |extra: &[&'static str]| [&base[..], extra].concat();
    fails(
        &with(&["--algorithms", "jump,bogus"]),
        "unknown algorithm 'bogus'",
    );
    fails(
        &with(&["--algorithms", "jump,anchor", "-H", "md5"]),
        "--hash",
    );
    fails(&with(&["--algorithms", "jump,anchor", "--live"]), "--live");
    fails(&with(&["--algorithms", ","]), "--algorithms: empty list");
    fails(
        &with(&["--algorithms", "jump,anchor", "--remove", "4"]),
        "--remove 4",
    );
    fails(
        &with(&["--algorithms", "jump", "-p", "libketama"]),
        "cannot be used with",
    );
    // --profile names one profile: a list, or an algorithm that is no profile, is refused
    // with the flag that compares algorithms.
    fails(
        &with(&["-p", "jump,anchor"]),
        "--profile takes one profile; to compare placement algorithms use --algorithms jump,anchor",
    );
    fails(
        &with(&["-p", "anchor"]),
        "'anchor' is an algorithm, not a profile: to compare placement algorithms use --algorithms anchor",
    );
    fails(
        &[
            "simulate",
            "--algorithms",
            "jump,anchor",
            "--nodes",
            "1",
            "--key-count",
            "9",
        ],
        "at least 2 servers",
    );
    fails(
        &[
            "simulate",
            "--algorithms",
            "jump,anchor",
            "--key-count",
            "0",
        ],
        "--key-count 0",
    );
    fails(
        &with(&[
            "--algorithms",
            "jump,anchor",
            "--plot",
            "/nonexistent-dir/x.svg",
        ]),
        "--plot",
    );
    // The output path is checked before any input is read or anything computed.
    fails(
        &[
            "simulate",
            "--algorithms",
            "jump,anchor",
            "--keys",
            "/nonexistent-keys",
            "--plot",
            "/nonexistent-dir/x.svg",
        ],
        "--plot /nonexistent-dir/x.svg: cannot write",
    );
}
