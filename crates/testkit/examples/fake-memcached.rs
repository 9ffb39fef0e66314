//! Runs one of the test suite's misbehaving memcached servers on 127.0.0.1, to probe the
//! `ketama` client by hand: `cargo run -p ketama-testkit --example fake-memcached -- KIND`
//! (slow, stalled, endless-metadump, endless-stats, garbage, killed-mid-reply). It prints its
//! address and stops by itself after 30 s.

use ketama_testkit::fake;

fn main() {
    let kind = std::env::args().nth(1).unwrap_or_default();
    let f = match kind.as_str() {
        "slow" => fake::Fake::slow(),
        "stalled" => fake::Fake::stalled(),
        "endless-metadump" => fake::Fake::endless_metadump(),
        "endless-stats" => fake::Fake::endless_stats(),
        "garbage" => fake::Fake::garbage(),
        "killed-mid-reply" => fake::Fake::killed_mid_reply(),
        _ => {
            eprintln!("usage: fake-memcached slow|stalled|endless-metadump|endless-stats|garbage|killed-mid-reply");
            std::process::exit(2);
        }
    };
    println!("{}", f.addr());
    std::thread::sleep(fake::LIFETIME);
}
