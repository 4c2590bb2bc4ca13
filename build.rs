//! Build script: gives the Windows executable its icon and version metadata (other platforms
//! get theirs from the packaging script: a macOS bundle's Info.plist, nothing on Linux).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=assets/icons/gridclash.ico");
    #[cfg(windows)]
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("windows") {
        let mut res = winresource::WindowsResource::new();
        res.set_icon("assets/icons/gridclash.ico");
        res.set("ProductName", "Gridclash");
        res.set(
            "FileDescription",
            "Gridclash: turn-based tactical battles by tabletop rules",
        );
        res.set("LegalCopyright", "MIT OR Apache-2.0");
        if let Err(e) = res.compile() {
            eprintln!("build.rs: could not embed the Windows icon and version: {e}");
            std::process::exit(1);
        }
    }
}
