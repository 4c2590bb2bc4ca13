//! Golden tests of the grid: every area shape in every direction, lines of sight around
//! awkward corners, and the reach of large combatants. Areas are drawn as text: `A` is the
//! origin, `#` a covered square, `W` a wall.

use gridclash::grid::area::covered;
use gridclash::grid::los::clear_line;
use gridclash::grid::{Dir8, Field, Map, Square};
use gridclash::ruleset::{AreaShape, CornerRule};

use crate::common::rules;

/// A map from rows of terrain symbols (`.` open, `#` wall…).
pub fn map_of(rows: &[&str]) -> Map {
    let r = rules();
    let mut m = Map::filled(rows[0].len() as u32, rows.len() as u32, 0);
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            m.set(
                Square::new(x as i32, y as i32),
                r.terrain_by_symbol(c).expect("known symbol"),
            );
        }
    }
    m
}

fn field<'a>(map: &'a Map, corners: CornerRule) -> Field<'a> {
    Field {
        map,
        terrain: &crate::common::rules_static().terrain.types,
        corners,
    }
}

/// Draws `squares` on `map` with the origin footprint marked.
fn draw(map: &Map, squares: &[Square], origin: Square, size: u32) -> String {
    let r = rules();
    let mut out = String::new();
    for y in 0..map.height as i32 {
        for x in 0..map.width as i32 {
            let s = Square::new(x, y);
            let own = gridclash::grid::footprint(origin, size).contains(&s);
            let wall = map
                .at(s)
                .is_some_and(|t| r.terrain.types[usize::from(t)].blocks_sight);
            out.push(if own {
                'A'
            } else if squares.contains(&s) {
                '#'
            } else if wall {
                'W'
            } else {
                '.'
            });
        }
        out.push('\n');
    }
    out
}

fn area(shape: AreaShape, dir: Option<Dir8>) -> String {
    let map = Map::filled(9, 9, 0);
    let f = field(&map, CornerRule::CornersBlockWhenBoth);
    let o = Square::new(4, 4);
    draw(&map, &covered(&f, shape, o, 1, dir, 1), o, 1)
}

fn golden(rows: &[&str]) -> String {
    rows.iter().map(|r| format!("{r}\n")).collect()
}

const BLAST: AreaShape = AreaShape::Cone {
    length: 3,
    width: 5,
};

#[test]
fn dbu_blast_cone_east_is_rows_of_one_three_five() {
    assert_eq!(
        area(BLAST, Some(Dir8::E)),
        golden(&[
            ".........",
            ".........",
            ".......#.",
            "......##.",
            "....A###.",
            "......##.",
            ".......#.",
            ".........",
            ".........",
        ])
    );
}

#[test]
fn dbu_blast_cone_west() {
    assert_eq!(
        area(BLAST, Some(Dir8::W)),
        golden(&[
            ".........",
            ".........",
            ".#.......",
            ".##......",
            ".###A....",
            ".##......",
            ".#.......",
            ".........",
            ".........",
        ])
    );
}

#[test]
fn dbu_blast_cone_north() {
    assert_eq!(
        area(BLAST, Some(Dir8::N)),
        golden(&[
            ".........",
            "..#####..",
            "...###...",
            "....#....",
            "....A....",
            ".........",
            ".........",
            ".........",
            ".........",
        ])
    );
}

#[test]
fn dbu_blast_cone_south() {
    assert_eq!(
        area(BLAST, Some(Dir8::S)),
        golden(&[
            ".........",
            ".........",
            ".........",
            ".........",
            "....A....",
            "....#....",
            "...###...",
            "..#####..",
            ".........",
        ])
    );
}

#[test]
fn dbu_blast_cone_diagonals_cover_nine_squares() {
    assert_eq!(
        area(BLAST, Some(Dir8::SE)),
        golden(&[
            ".........",
            ".........",
            ".........",
            ".........",
            "....A....",
            ".....###.",
            ".....###.",
            ".....###.",
            ".........",
        ])
    );
    assert_eq!(
        area(BLAST, Some(Dir8::NE)),
        golden(&[
            ".........",
            ".....###.",
            ".....###.",
            ".....###.",
            "....A....",
            ".........",
            ".........",
            ".........",
            ".........",
        ])
    );
    assert_eq!(
        area(BLAST, Some(Dir8::SW)),
        golden(&[
            ".........",
            ".........",
            ".........",
            ".........",
            "....A....",
            ".###.....",
            ".###.....",
            ".###.....",
            ".........",
        ])
    );
    assert_eq!(
        area(BLAST, Some(Dir8::NW)),
        golden(&[
            ".........",
            ".###.....",
            ".###.....",
            ".###.....",
            "....A....",
            ".........",
            ".........",
            ".........",
            ".........",
        ])
    );
}

#[test]
fn dbu_explosion_sphere_covers_every_square_within_three() {
    let map = Map::filled(9, 9, 0);
    let f = field(&map, CornerRule::CornersBlockWhenBoth);
    let got = covered(
        &f,
        AreaShape::Sphere { radius: 3 },
        Square::new(4, 4),
        1,
        None,
        1,
    );
    assert_eq!(got.len(), 49);
    assert_eq!(
        draw(&map, &got, Square::new(4, 4), 1),
        golden(&[
            ".........",
            ".#######.",
            ".#######.",
            ".#######.",
            ".###A###.",
            ".#######.",
            ".#######.",
            ".#######.",
            ".........",
        ])
    );
    // Clipped at the map's corner: a 4 x 4 block.
    let got = covered(
        &f,
        AreaShape::Sphere { radius: 3 },
        Square::new(0, 0),
        1,
        None,
        1,
    );
    assert_eq!(got.len(), 16);
}

#[test]
fn dbu_sweeping_reach_covers_the_melee_range_around_the_attacker() {
    assert_eq!(
        area(AreaShape::Reach, None),
        golden(&[
            ".........",
            ".........",
            ".........",
            "...###...",
            "...#A#...",
            "...###...",
            ".........",
            ".........",
            ".........",
        ])
    );
    // An Enormous (2 x 2) attacker reaches 2 squares from its nearest squares.
    let map = Map::filled(9, 9, 0);
    let f = field(&map, CornerRule::CornersBlockWhenBoth);
    let got = covered(&f, AreaShape::Reach, Square::new(3, 3), 2, None, 2);
    assert_eq!(
        draw(&map, &got, Square::new(3, 3), 2),
        golden(&[
            ".........",
            ".######..",
            ".######..",
            ".##AA##..",
            ".##AA##..",
            ".######..",
            ".######..",
            ".........",
            ".........",
        ])
    );
}

#[test]
fn lines_in_every_direction() {
    let line = AreaShape::Line {
        length: 3,
        width: 1,
    };
    let mut all = String::new();
    for d in Dir8::ALL {
        all.push_str(&area(line, Some(d)));
        all.push('\n');
    }
    let want = [
        // N
        ["....#....", "....#....", "....#....", "....A...."],
        // NE
        [".......#.", "......#..", ".....#...", "....A...."],
    ];
    let n = area(line, Some(Dir8::N));
    assert_eq!(
        n.lines().skip(1).take(4).collect::<Vec<_>>(),
        want[0].to_vec()
    );
    let ne = area(line, Some(Dir8::NE));
    assert_eq!(
        ne.lines().skip(1).take(4).collect::<Vec<_>>(),
        want[1].to_vec()
    );
    assert_eq!(area(line, Some(Dir8::E)).lines().nth(4), Some("....A###."));
    assert_eq!(area(line, Some(Dir8::W)).lines().nth(4), Some(".###A...."));
    assert_eq!(
        area(line, Some(Dir8::S)),
        golden(&[
            ".........",
            ".........",
            ".........",
            ".........",
            "....A....",
            "....#....",
            "....#....",
            "....#....",
            ".........",
        ])
    );
    assert_eq!(
        area(line, Some(Dir8::SE)),
        golden(&[
            ".........",
            ".........",
            ".........",
            ".........",
            "....A....",
            ".....#...",
            "......#..",
            ".......#.",
            ".........",
        ])
    );
    assert_eq!(
        area(line, Some(Dir8::SW)),
        golden(&[
            ".........",
            ".........",
            ".........",
            ".........",
            "....A....",
            "...#.....",
            "..#......",
            ".#.......",
            ".........",
        ])
    );
    assert_eq!(
        area(line, Some(Dir8::NW)),
        golden(&[
            ".........",
            ".#.......",
            "..#......",
            "...#.....",
            "....A....",
            ".........",
            ".........",
            ".........",
            ".........",
        ])
    );
    assert!(all.matches('#').count() == 24, "8 directions x 3 squares");
}

#[test]
fn wide_lines_straight_and_diagonal() {
    let wide = AreaShape::Line {
        length: 3,
        width: 3,
    };
    assert_eq!(
        area(wide, Some(Dir8::E)),
        golden(&[
            ".........",
            ".........",
            ".........",
            ".....###.",
            "....A###.",
            ".....###.",
            ".........",
            ".........",
            ".........",
        ])
    );
    assert_eq!(
        area(wide, Some(Dir8::SE)),
        golden(&[
            ".........",
            ".........",
            ".........",
            ".........",
            "....A#...",
            "....###..",
            ".....###.",
            "......##.",
            ".........",
        ])
    );
}

#[test]
fn dbu_areas_stop_at_walls() {
    // A wall east of the centre shelters the squares whose lines cross it; (5,1) and (5,5),
    // whose lines only touch its corner, are still hit.
    let map = map_of(&[
        ".......", ".......", ".......", "....#..", ".......", ".......", ".......",
    ]);
    let f = field(&map, CornerRule::CornersBlockWhenBoth);
    let got = covered(
        &f,
        AreaShape::Sphere { radius: 3 },
        Square::new(3, 3),
        1,
        None,
        1,
    );
    assert_eq!(
        draw(&map, &got, Square::new(3, 3), 1),
        golden(&[
            "#######", "######.", "#####..", "###AW..", "#####..", "######.", "#######",
        ])
    );
}

#[test]
fn los_corner_rule_both_blocks_a_squeeze_between_two_walls() {
    let map = map_of(&["....", ".#..", "#...", "...."]);
    let a = Square::new(0, 1);
    let b = Square::new(1, 2);
    for (rule, clear) in [
        (CornerRule::CornersNeverBlock, true),
        (CornerRule::CornersBlockWhenBoth, false),
        (CornerRule::CornersBlockWhenEither, false),
    ] {
        let f = field(&map, rule);
        assert_eq!(clear_line(&f, a, b), clear, "{rule:?}");
    }
}

#[test]
fn los_corner_rule_either_blocks_brushing_past_one_wall() {
    // From (0,0) to (2,2) the line passes the corners at (1,1) and (2,2) of the grid; a single
    // wall at (1,0) is only touched.
    let map = map_of(&[".#..", "....", "....", "...."]);
    let (a, b) = (Square::new(0, 0), Square::new(2, 2));
    for (rule, clear) in [
        (CornerRule::CornersNeverBlock, true),
        (CornerRule::CornersBlockWhenBoth, true),
        (CornerRule::CornersBlockWhenEither, false),
    ] {
        let f = field(&map, rule);
        assert_eq!(clear_line(&f, a, b), clear, "{rule:?}");
    }
}

#[test]
fn los_is_blocked_by_every_wall_it_crosses_under_every_rule() {
    let map = map_of(&["..#..", ".....", "....."]);
    for rule in [
        CornerRule::CornersNeverBlock,
        CornerRule::CornersBlockWhenBoth,
        CornerRule::CornersBlockWhenEither,
    ] {
        let f = field(&map, rule);
        assert!(!clear_line(&f, Square::new(0, 0), Square::new(4, 0)));
        // A knight's-move line crosses (1,0) and (1,1), not the wall at (2,0).
        assert!(clear_line(&f, Square::new(0, 0), Square::new(2, 1)));
        // Walls never block a line to themselves' neighbours on the far side of nothing.
        assert!(clear_line(&f, Square::new(0, 2), Square::new(4, 2)));
    }
}
