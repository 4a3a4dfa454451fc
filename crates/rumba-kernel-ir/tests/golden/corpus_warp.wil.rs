// ---- warp_mix
// uses: ["Read", "Read", "ReadWrite", "ReadWrite", "ReadWrite", "ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            x: &::rumba::kernel::wil::GlobalIn<'_, f32, 1usize, __R>,
            p: &::rumba::kernel::wil::GlobalIn<'_, i32, 1usize, __R>,
            mask: u32,
            arg: u32,
            f: &::rumba::kernel::GlobalView<'_, f32>,
            u: &::rumba::kernel::GlobalView<'_, u32>,
        ) {
            const __WS0: ::rumba::kernel::wil::WarpSite = ::rumba::kernel::wil::WarpSite::new(
                ::rumba::kernel::wil::WarpKind::Shfl,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __WS1: ::rumba::kernel::wil::WarpSite = ::rumba::kernel::wil::WarpSite::new(
                ::rumba::kernel::wil::WarpKind::ShflUp,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __WS2: ::rumba::kernel::wil::WarpSite = ::rumba::kernel::wil::WarpSite::new(
                ::rumba::kernel::wil::WarpKind::ShflDown,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __WS3: ::rumba::kernel::wil::WarpSite = ::rumba::kernel::wil::WarpSite::new(
                ::rumba::kernel::wil::WarpKind::ShflXor,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __WS4: ::rumba::kernel::wil::WarpSite = ::rumba::kernel::wil::WarpSite::new(
                ::rumba::kernel::wil::WarpKind::Ballot,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __WS5: ::rumba::kernel::wil::WarpSite = ::rumba::kernel::wil::WarpSite::new(
                ::rumba::kernel::wil::WarpKind::All,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __WS6: ::rumba::kernel::wil::WarpSite = ::rumba::kernel::wil::WarpSite::new(
                ::rumba::kernel::wil::WarpKind::Any,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __WS7: ::rumba::kernel::wil::WarpSite = ::rumba::kernel::wil::WarpSite::new(
                ::rumba::kernel::wil::WarpKind::ActiveMask,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let x = *x;
            let p = *p;
            let f = *f;
            let u = *u;
            let __ctx_v = __blk.context::<f32>();
            let __ctx_a = __blk.context::<f32>();
            let __ctx_b = __blk.context::<f32>();
            let __ctx_c = __blk.context::<f32>();
            let __ctx___rumba_wv8 = __blk.context::<f32>();
            let __ctx___rumba_wv9 = __blk.context::<f32>();
            let __ctx___rumba_wv10 = __blk.context::<f32>();
            let __ctx___rumba_wv11 = __blk.context::<f32>();
            let __ctx___rumba_wv12 = __blk.context::<u32>();
            let __ctx___rumba_wv13 = __blk.context::<i32>();
            let __ctx___rumba_wv14 = __blk.context::<i32>();
            let __ctx___rumba_wv15 = __blk.context::<u32>();
            let __wv__WS2 = __blk.context::<f32>();
            let __wp__WS4 = __blk.context::<u8>();
            let __wp__WS5 = __blk.context::<u8>();
            let __wp__WS6 = __blk.context::<u8>();
            if let (::core::option::Option::Some(__win_x),) = (x.own_window(__blk),) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let mut v: f32 = __ctx_v.get(__w as usize);
                            v = __win_x.at(__w);
                            __ctx_v.set(__w as usize, v);
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let mut v: f32 = __ctx_v.get(__w as usize);
                            v = x.get(i);
                            __ctx_v.set(__w as usize, v);
                        },
                    );
            }
            __blk
                .warp_shfl_uniform::<f32>(&__WS0, mask, __ctx_v, arg, __ctx___rumba_wv8);
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let mut a: f32 = __ctx_a.get(__w as usize);
                        let mut __rumba_wv8: f32 = __ctx___rumba_wv8.get(__w as usize);
                        a = __rumba_wv8;
                        __ctx_a.set(__w as usize, a);
                    },
                );
            __blk
                .warp_shfl_uniform::<f32>(&__WS1, mask, __ctx_v, arg, __ctx___rumba_wv9);
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let mut v: f32 = __ctx_v.get(__w as usize);
                        let mut b: f32 = __ctx_b.get(__w as usize);
                        let mut __rumba_wv9: f32 = __ctx___rumba_wv9.get(__w as usize);
                        b = __rumba_wv9;
                        __wv__WS2.set(__w as usize, (v * 2f32));
                        __ctx_b.set(__w as usize, b);
                    },
                );
            __blk
                .warp_shfl_uniform::<
                    f32,
                >(&__WS2, mask, __wv__WS2, arg, __ctx___rumba_wv10);
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let mut c: f32 = __ctx_c.get(__w as usize);
                        let mut __rumba_wv10: f32 = __ctx___rumba_wv10.get(__w as usize);
                        c = __rumba_wv10;
                        __ctx_c.set(__w as usize, c);
                    },
                );
            __blk
                .warp_shfl_uniform::<
                    f32,
                >(&__WS3, mask, __ctx_v, arg, __ctx___rumba_wv11);
            if let (::core::option::Option::Some(__win_p),) = (p.own_window(__blk),) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let mut a: f32 = __ctx_a.get(__w as usize);
                            let mut b: f32 = __ctx_b.get(__w as usize);
                            let mut c: f32 = __ctx_c.get(__w as usize);
                            let mut __rumba_wv11: f32 = __ctx___rumba_wv11
                                .get(__w as usize);
                            let d: f32 = __rumba_wv11;
                            f.set((4usize).wrapping_mul(i), a);
                            f.set(((4usize).wrapping_mul(i)).wrapping_add(1usize), b);
                            f.set(((4usize).wrapping_mul(i)).wrapping_add(2usize), c);
                            f.set(((4usize).wrapping_mul(i)).wrapping_add(3usize), d);
                            __wp__WS4.set(__w as usize, ((__win_p.at(__w)) != 0) as u8);
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let mut a: f32 = __ctx_a.get(__w as usize);
                            let mut b: f32 = __ctx_b.get(__w as usize);
                            let mut c: f32 = __ctx_c.get(__w as usize);
                            let mut __rumba_wv11: f32 = __ctx___rumba_wv11
                                .get(__w as usize);
                            let d: f32 = __rumba_wv11;
                            f.set((4usize).wrapping_mul(i), a);
                            f.set(((4usize).wrapping_mul(i)).wrapping_add(1usize), b);
                            f.set(((4usize).wrapping_mul(i)).wrapping_add(2usize), c);
                            f.set(((4usize).wrapping_mul(i)).wrapping_add(3usize), d);
                            __wp__WS4.set(__w as usize, ((p.get(i)) != 0) as u8);
                        },
                    );
            }
            __blk.warp_ballot(&__WS4, mask, __wp__WS4, __ctx___rumba_wv12);
            if let (::core::option::Option::Some(__win_p),) = (p.own_window(__blk),) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let mut __rumba_wv12: u32 = __ctx___rumba_wv12
                                .get(__w as usize);
                            u.set((4usize).wrapping_mul(i), __rumba_wv12);
                            __wp__WS5
                                .set(__w as usize, ((__win_p.at(__w) != 0i32)) as u8);
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let mut __rumba_wv12: u32 = __ctx___rumba_wv12
                                .get(__w as usize);
                            u.set((4usize).wrapping_mul(i), __rumba_wv12);
                            __wp__WS5.set(__w as usize, ((p.get(i) != 0i32)) as u8);
                        },
                    );
            }
            __blk.warp_vote(&__WS5, mask, __wp__WS5, __ctx___rumba_wv13);
            if let (::core::option::Option::Some(__win_p),) = (p.own_window(__blk),) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let mut __rumba_wv13: i32 = __ctx___rumba_wv13
                                .get(__w as usize);
                            u.set(
                                ((4usize).wrapping_mul(i)).wrapping_add(1usize),
                                ((__rumba_wv13) as u32),
                            );
                            __wp__WS6
                                .set(__w as usize, ((__win_p.at(__w) > 1i32)) as u8);
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let mut __rumba_wv13: i32 = __ctx___rumba_wv13
                                .get(__w as usize);
                            u.set(
                                ((4usize).wrapping_mul(i)).wrapping_add(1usize),
                                ((__rumba_wv13) as u32),
                            );
                            __wp__WS6.set(__w as usize, ((p.get(i) > 1i32)) as u8);
                        },
                    );
            }
            __blk.warp_vote(&__WS6, mask, __wp__WS6, __ctx___rumba_wv14);
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let i: usize = (__bidx.x as usize * __bdim.x as usize
                            + __tid.x as usize);
                        let mut __rumba_wv14: i32 = __ctx___rumba_wv14.get(__w as usize);
                        u.set(
                            ((4usize).wrapping_mul(i)).wrapping_add(2usize),
                            ((__rumba_wv14) as u32),
                        );
                    },
                );
            __blk.warp_activemask(&__WS7, __ctx___rumba_wv15);
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let i: usize = (__bidx.x as usize * __bdim.x as usize
                            + __tid.x as usize);
                        let mut __rumba_wv15: u32 = __ctx___rumba_wv15.get(__w as usize);
                        u.set(
                            ((4usize).wrapping_mul(i)).wrapping_add(3usize),
                            __rumba_wv15,
                        );
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let x = ::rumba::kernel::wil::GlobalIn::<
                f32,
                1usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
            let p = ::rumba::kernel::wil::GlobalIn::<
                i32,
                1usize,
                __R,
            >::from_arg(&__args[1usize], 1usize)?;
            let mask: u32 = <u32 as ::rumba::kernel::Param>::view(
                &__args[2usize],
                2usize,
            )?;
            let arg: u32 = <u32 as ::rumba::kernel::Param>::view(
                &__args[3usize],
                3usize,
            )?;
            let f = <::rumba::kernel::Arr<
                f32,
            > as ::rumba::kernel::Param>::view(&__args[4usize], 4usize)?;
            let u = <::rumba::kernel::Arr<
                u32,
            > as ::rumba::kernel::Param>::view(&__args[5usize], 5usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &p, mask, arg, &f, &u),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &p, mask, arg, &f, &u),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[0usize, 1usize]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (true, _) => {
                __run::<
                    ::rumba::kernel::wil::Plain,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
            (false, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- warp_after_return
// uses: ["OwnIndexStore", "ReadWrite", "ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            __out_out: &::rumba::kernel::wil::OwnOut<'_, i64, __W, 1usize>,
            gone: u32,
            src: u32,
        ) {
            const __WS0: ::rumba::kernel::wil::WarpSite = ::rumba::kernel::wil::WarpSite::new(
                ::rumba::kernel::wil::WarpKind::Shfl,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __WS1: ::rumba::kernel::wil::WarpSite = ::rumba::kernel::wil::WarpSite::new(
                ::rumba::kernel::wil::WarpKind::Ballot,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __WS2: ::rumba::kernel::wil::WarpSite = ::rumba::kernel::wil::WarpSite::new(
                ::rumba::kernel::wil::WarpKind::ActiveMask,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __WS3: ::rumba::kernel::wil::WarpSite = ::rumba::kernel::wil::WarpSite::new(
                ::rumba::kernel::wil::WarpKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let out = __out_out.block(__blk);
            let __ctx_v = __blk.context::<i64>();
            let __ctx_b = __blk.context::<u32>();
            let __ctx_m = __blk.context::<u32>();
            let __ctx___rumba_wv6 = __blk.context::<i64>();
            let __ctx___rumba_wv7 = __blk.context::<u32>();
            let __ctx___rumba_wv8 = __blk.context::<u32>();
            let __wv__WS0 = __blk.context::<i64>();
            let __wp__WS1 = __blk.context::<u8>();
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let i: usize = (__bidx.x as usize * __bdim.x as usize
                            + __tid.x as usize);
                        if ((__w % 32u32) == gone) {
                            {
                                __blk.exit(__w);
                                return;
                            }
                        }
                        __wv__WS0.set(__w as usize, (((i).wrapping_mul(3usize)) as i64));
                    },
                );
            if __blk.all_exited() {
                return;
            }
            __blk
                .warp_shfl_uniform::<
                    i64,
                >(&__WS0, 4294967295u32, __wv__WS0, src, __ctx___rumba_wv6);
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let mut v: i64 = __ctx_v.get(__w as usize);
                        let mut __rumba_wv6: i64 = __ctx___rumba_wv6.get(__w as usize);
                        v = __rumba_wv6;
                        __wp__WS1.set(__w as usize, (true) as u8);
                        __ctx_v.set(__w as usize, v);
                    },
                );
            __blk.warp_ballot(&__WS1, 4294967295u32, __wp__WS1, __ctx___rumba_wv7);
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let mut b: u32 = __ctx_b.get(__w as usize);
                        let mut __rumba_wv7: u32 = __ctx___rumba_wv7.get(__w as usize);
                        b = __rumba_wv7;
                        __ctx_b.set(__w as usize, b);
                    },
                );
            __blk.warp_activemask(&__WS2, __ctx___rumba_wv8);
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let mut m: u32 = __ctx_m.get(__w as usize);
                        let mut __rumba_wv8: u32 = __ctx___rumba_wv8.get(__w as usize);
                        m = __rumba_wv8;
                        __ctx_m.set(__w as usize, m);
                    },
                );
            __blk.warp_sync(&__WS3, 4294967295u32);
            if let (::core::option::Option::Some(__win_out),) = (
                __out_out.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let mut v: i64 = __ctx_v.get(__w as usize);
                            let mut b: u32 = __ctx_b.get(__w as usize);
                            let mut m: u32 = __ctx_m.get(__w as usize);
                            __win_out
                                .set(
                                    __w,
                                    ((v)
                                        .wrapping_add((((b) as i64)).wrapping_shl((32i32) as u32)))
                                        .wrapping_add(((m) as i64)),
                                );
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let mut v: i64 = __ctx_v.get(__w as usize);
                            let mut b: u32 = __ctx_b.get(__w as usize);
                            let mut m: u32 = __ctx_m.get(__w as usize);
                            out.set(
                                i,
                                ((v)
                                    .wrapping_add((((b) as i64)).wrapping_shl((32i32) as u32)))
                                    .wrapping_add(((m) as i64)),
                            );
                        },
                    );
            }
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let __out_out = ::rumba::kernel::wil::OwnOut::<
                i64,
                __W,
                1usize,
            >::from_arg(&__args[0usize], 0usize, &__cfg)?;
            let gone: u32 = <u32 as ::rumba::kernel::Param>::view(
                &__args[1usize],
                1usize,
            )?;
            let src: u32 = <u32 as ::rumba::kernel::Param>::view(
                &__args[2usize],
                2usize,
            )?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &__out_out, gone, src),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &__out_out, gone, src),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[0usize], &__cfg),
        ) {
            (_, true) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (_, false) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- warp_sum_u64
// uses: ["Read", "ReadWrite", "OwnIndexStore"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            x: &::rumba::kernel::wil::GlobalIn<'_, u64, 1usize, __R>,
            levels: u32,
            __out_out: &::rumba::kernel::wil::OwnOut<'_, u64, __W, 1usize>,
        ) {
            const __WS0: ::rumba::kernel::wil::WarpSite = ::rumba::kernel::wil::WarpSite::new(
                ::rumba::kernel::wil::WarpKind::ShflXor,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __BS1: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let x = *x;
            let out = __out_out.block(__blk);
            let __ctx_v = __blk.context::<u64>();
            let __ctx___rumba_wv4 = __blk.context::<u64>();
            if let (::core::option::Option::Some(__win_x),) = (x.own_window(__blk),) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let mut v: u64 = __ctx_v.get(__w as usize);
                            v = (if true { __win_x.at(__w) } else { 0u64 });
                            __ctx_v.set(__w as usize, v);
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let mut v: u64 = __ctx_v.get(__w as usize);
                            v = (if (i < x.len()) { x.get(i) } else { 0u64 });
                            __ctx_v.set(__w as usize, v);
                        },
                    );
            }
            for k in (0u32)..(levels) {
                __blk
                    .warp_shfl_uniform::<
                        u64,
                    >(
                        &__WS0,
                        4294967295u32,
                        __ctx_v,
                        (1u32).wrapping_shl((k) as u32),
                        __ctx___rumba_wv4,
                    );
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let mut v: u64 = __ctx_v.get(__w as usize);
                            let mut __rumba_wv4: u64 = __ctx___rumba_wv4
                                .get(__w as usize);
                            v = <u64>::wrapping_add(v, __rumba_wv4);
                            __ctx_v.set(__w as usize, v);
                        },
                    );
            }
            let __trues2: u32 = 0;
            let _ = match __blk.barrier(&__BS1, __trues2) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            if let (::core::option::Option::Some(__win_out),) = (
                __out_out.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let mut v: u64 = __ctx_v.get(__w as usize);
                            if true {
                                __win_out.set(__w, v);
                            }
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let mut v: u64 = __ctx_v.get(__w as usize);
                            if (i < out.len()) {
                                out.set(i, v);
                            }
                        },
                    );
            }
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let x = ::rumba::kernel::wil::GlobalIn::<
                u64,
                1usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
            let levels: u32 = <u32 as ::rumba::kernel::Param>::view(
                &__args[1usize],
                1usize,
            )?;
            let __out_out = ::rumba::kernel::wil::OwnOut::<
                u64,
                __W,
                1usize,
            >::from_arg(&__args[2usize], 2usize, &__cfg)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, levels, &__out_out),
                    )
                }
                [16u32, 16u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<16u32, 16u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, levels, &__out_out),
                    )
                }
                [32u32, 32u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<32u32, 32u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, levels, &__out_out),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, levels, &__out_out),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[0usize]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[2usize], &__cfg),
        ) {
            (true, true) => {
                __run::<
                    ::rumba::kernel::wil::Plain,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (true, false) => {
                __run::<
                    ::rumba::kernel::wil::Plain,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
            (false, true) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (false, false) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- warp_early_break
// coroutines only: `shfl_xor_sync` runs under thread-dependent control (the lanes of a warp may meet there while others are elsewhere, which coroutines do)
// ---- warp_own_mask
// coroutines only: the mask of `ballot_sync` is not block-uniform (lanes of one warp may pass different masks, which coroutines resolve)
// ---- narrowed_lanes
// uses: ["ReadWrite", "ReadWrite", "ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            out: &::rumba::kernel::GlobalView<'_, i64>,
            hits: &::rumba::kernel::GlobalView<'_, u32>,
            k: u32,
        ) {
            const __BS0: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __BS2: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __BS4: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __BS6: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __BS8: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __BS10: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __BS12: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __BS14: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let out = *out;
            let hits = *hits;
            let s = __blk.shared_array::<i64, 1usize>([96usize]);
            let n: usize = ((((__bdim).x).wrapping_mul((__bdim).y)) as usize);
            let __trues1: u32 = 0;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let lin: usize = (((((__tid).y) as usize))
                            .wrapping_mul((((__bdim).x) as usize)))
                            .wrapping_add((((__tid).x) as usize));
                        let lane: u32 = (__w % 32u32);
                        s.set(lin, 0i64);
                    },
                );
            let _ = match __blk.barrier(&__BS0, __trues1) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            let __trues3: u32 = 0;
            __blk
                .each_lane(
                    ((0u32) as i128),
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let lin: usize = (((((__tid).y) as usize))
                            .wrapping_mul((((__bdim).x) as usize)))
                            .wrapping_add((((__tid).x) as usize));
                        if ((__w % 32u32) == 0u32) {
                            {
                                let __rumba_i = lin;
                                let __rumba_v: i64 = 1i64;
                                s.set(
                                    __rumba_i,
                                    (s.get(__rumba_i)).wrapping_add(__rumba_v),
                                );
                            }
                        }
                    },
                );
            let _ = match __blk.barrier(&__BS2, __trues3) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            let __trues5: u32 = 0;
            __blk
                .each_lane(
                    ((3u32) as i128),
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let lin: usize = (((((__tid).y) as usize))
                            .wrapping_mul((((__bdim).x) as usize)))
                            .wrapping_add((((__tid).x) as usize));
                        if (3u32 == (__w % 32u32)) {
                            {
                                let __rumba_i = lin;
                                let __rumba_v: i64 = 2i64;
                                s.set(
                                    __rumba_i,
                                    (s.get(__rumba_i)).wrapping_add(__rumba_v),
                                );
                            }
                        }
                    },
                );
            let _ = match __blk.barrier(&__BS4, __trues5) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            let __trues7: u32 = 0;
            __blk
                .each_lane(
                    ((k) as i128),
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let lin: usize = (((((__tid).y) as usize))
                            .wrapping_mul((((__bdim).x) as usize)))
                            .wrapping_add((((__tid).x) as usize));
                        let lane: u32 = (__w % 32u32);
                        if (lane == k) {
                            {
                                let __rumba_i = lin;
                                let __rumba_v: i64 = 4i64;
                                s.set(
                                    __rumba_i,
                                    (s.get(__rumba_i)).wrapping_add(__rumba_v),
                                );
                            }
                        }
                    },
                );
            let _ = match __blk.barrier(&__BS6, __trues7) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            let __trues9: u32 = 0;
            __blk
                .each_lane(
                    ((31usize) as i128),
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let lin: usize = (((((__tid).y) as usize))
                            .wrapping_mul((((__bdim).x) as usize)))
                            .wrapping_add((((__tid).x) as usize));
                        if ((((__w % 32u32)) as usize) == 31usize) {
                            {
                                let __rumba_i = lin;
                                let __rumba_v: i64 = 8i64;
                                s.set(
                                    __rumba_i,
                                    (s.get(__rumba_i)).wrapping_add(__rumba_v),
                                );
                            }
                        }
                    },
                );
            let _ = match __blk.barrier(&__BS8, __trues9) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            let __trues11: u32 = 0;
            __blk
                .each_lane(
                    ((7u32) as i128),
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let lin: usize = (((((__tid).y) as usize))
                            .wrapping_mul((((__bdim).x) as usize)))
                            .wrapping_add((((__tid).x) as usize));
                        let lane: u32 = (__w % 32u32);
                        if (((lin % 3usize) == 1usize) && (lane == 7u32)) {
                            {
                                let __rumba_i = lin;
                                let __rumba_v: i64 = 16i64;
                                s.set(
                                    __rumba_i,
                                    (s.get(__rumba_i)).wrapping_add(__rumba_v),
                                );
                            }
                        }
                    },
                );
            let _ = match __blk.barrier(&__BS10, __trues11) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            let __trues13: u32 = 0;
            __blk
                .each_lane(
                    (((k).wrapping_add(32u32)) as i128),
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let lin: usize = (((((__tid).y) as usize))
                            .wrapping_mul((((__bdim).x) as usize)))
                            .wrapping_add((((__tid).x) as usize));
                        let lane: u32 = (__w % 32u32);
                        if (lane == (k).wrapping_add(32u32)) {
                            {
                                let __rumba_i = lin;
                                let __rumba_v: i64 = 32i64;
                                s.set(
                                    __rumba_i,
                                    (s.get(__rumba_i)).wrapping_add(__rumba_v),
                                );
                            }
                        }
                    },
                );
            let _ = match __blk.barrier(&__BS12, __trues13) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            let __trues15: u32 = 0;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let lin: usize = (((((__tid).y) as usize))
                            .wrapping_mul((((__bdim).x) as usize)))
                            .wrapping_add((((__tid).x) as usize));
                        let lane: u32 = (__w % 32u32);
                        if ((hits.atomic_add(0usize, 1u32) < 1000000u32)
                            && (lane == 2u32))
                        {
                            {
                                let __rumba_i = lin;
                                let __rumba_v: i64 = 64i64;
                                s.set(
                                    __rumba_i,
                                    (s.get(__rumba_i)).wrapping_add(__rumba_v),
                                );
                            }
                        }
                    },
                );
            let _ = match __blk.barrier(&__BS14, __trues15) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let lin: usize = (((((__tid).y) as usize))
                            .wrapping_mul((((__bdim).x) as usize)))
                            .wrapping_add((((__tid).x) as usize));
                        out.set(
                            (((((__bidx).x) as usize)).wrapping_mul(n))
                                .wrapping_add(lin),
                            s.get(lin),
                        );
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let out = <::rumba::kernel::Arr<
                i64,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let hits = <::rumba::kernel::Arr<
                u32,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            let k: u32 = <u32 as ::rumba::kernel::Param>::view(&__args[2usize], 2usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &out, &hits, k),
                    )
                }
                [16u32, 16u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<16u32, 16u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &out, &hits, k),
                    )
                }
                [32u32, 32u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<32u32, 32u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &out, &hits, k),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &out, &hits, k),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (_, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
