use super::*;

fn map(json: &str, sls: u16) -> Result<Box<dyn LaneMap>, MapError> {
    let config: LaneMapConfig = serde_json::from_str(json).unwrap();
    build_map(&config, sls)
}

#[test]
fn identity_gives_every_sl_its_lane() {
    let m = map(r#"{"kind":"identity"}"#, 4).unwrap();
    assert_eq!(
        (0..4).map(|s| m.lane(s)).collect::<Vec<_>>(),
        vec![0, 1, 2, 3]
    );
    assert_eq!(m.lanes(), 4);
}

#[test]
fn sl2vl_shares_vls_and_refuses_vl15() {
    let m = map(r#"{"kind":"sl2vl","sl2vl":[0,0,1,3]}"#, 4).unwrap();
    assert_eq!(
        (0..4).map(|s| m.lane(s)).collect::<Vec<_>>(),
        vec![0, 0, 1, 3]
    );
    assert_eq!(m.lanes(), 4);
    let e = map(r#"{"kind":"sl2vl","sl2vl":[0,15]}"#, 2).unwrap_err();
    assert_eq!(e.field, "sl2vl[1]");
    assert!(e.message.contains("0 to 14"), "{}", e.message);
    let e = map(r#"{"kind":"sl2vl","sl2vl":[0]}"#, 2).unwrap_err();
    assert_eq!(e.field, "sl2vl");
}

#[test]
fn omnipath_goes_through_the_sc_and_checks_it_back() {
    let json = r#"{"kind":"omnipath","sl2sc":[2,0,1],"sc2vl":[1,1,0],"sc2sl":[1,2,0]}"#;
    let m = map(json, 3).unwrap();
    // SL0 -> SC2 -> VL0, SL1 -> SC0 -> VL1, SL2 -> SC1 -> VL1.
    assert_eq!((0..3).map(|s| m.lane(s)).collect::<Vec<_>>(), vec![0, 1, 1]);
    assert_eq!(
        (0..3).map(|s| m.delivered_sl(s)).collect::<Vec<_>>(),
        vec![0, 1, 2]
    );
    let bad_back = r#"{"kind":"omnipath","sl2sc":[0,1],"sc2vl":[0,1],"sc2sl":[0,0]}"#;
    let e = map(bad_back, 2).unwrap_err();
    assert_eq!(e.field, "sc2sl[1]");
    let management = r#"{"kind":"omnipath","sl2sc":[15],"sc2vl":[],"sc2sl":[]}"#;
    assert_eq!(map(management, 1).unwrap_err().field, "sl2sc[0]");
    let short = r#"{"kind":"omnipath","sl2sc":[0,3],"sc2vl":[0,1],"sc2sl":[0,1,0,1]}"#;
    assert_eq!(map(short, 2).unwrap_err().field, "sc2vl");
}

#[test]
fn class_to_vc_puts_eight_classes_on_two_vcs() {
    let m = map(r#"{"kind":"class_to_vc","vc":[0,0,0,0,1,1,1,1]}"#, 8).unwrap();
    assert_eq!(m.lanes(), 2);
    assert_eq!(m.lane(5), 1);
}

#[test]
fn unknown_kind_is_named() {
    let e = serde_json::from_str::<LaneMapConfig>(r#"{"kind":"sl2sc"}"#).unwrap_err();
    assert!(e.to_string().contains("not a known lane map"), "{e}");
}

/// Queues per (SL, routing lane); lanes per (map lane, routing lane).
#[test]
fn lanes_multiply_map_lanes_by_routing_lanes() {
    let m = map(r#"{"kind":"sl2vl","sl2vl":[1,0,1]}"#, 3).unwrap();
    let lanes = Lanes::new(m, 3, 2);
    assert_eq!(lanes.port_lanes(), 4);
    assert_eq!(lanes.queues(), 6);
    assert_eq!(lanes.queue(2, 1), 5);
    // SL 2 is on VL 1: lanes 2 (r = 0) and 3 (r = 1); SL 1 on VL 0: lanes 0 and 1.
    assert_eq!(
        (0..6).map(|q| lanes.lane_of_queue(q)).collect::<Vec<_>>(),
        vec![2, 3, 0, 1, 2, 3]
    );
    let identity = Lanes::new(Box::new(Identity::new(3)), 3, 1);
    assert_eq!(
        (0..3)
            .map(|q| identity.lane_of_queue(q))
            .collect::<Vec<_>>(),
        vec![0, 1, 2]
    );
}
