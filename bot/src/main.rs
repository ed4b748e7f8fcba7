fn main() {
    eprintln!("tokar: the table is not built yet");
    std::process::exit(2);
}
