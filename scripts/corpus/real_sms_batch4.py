# Batch 4 of the real-message corpus (see real-sms.py): collected in decision 048's session, after
# batches 1-3 had been tuned on; scored once as collected, before any parser change for it
# (docs/decisions/048). Sources: a pickup-code module's corpus of its users' reports, issue
# threads of an SMS pickup app, an SMS app's debug log of its developer's own inbox (with the send
# times), a station-name test that quotes the messages of a real phone, and a user's pasted text
# quoted in an OCR page's comment. Only messages with signs of being received (a real place, a
# courier's number, an irregular code, a send time in an inbox log) are kept; a developer's
# made-up examples (12345678, XX小区, a "test" station) are left out. Of one template repeated at
# one station in the inbox log, two messages are kept.
N = None
OKAI = "github:O-kai/Xiaomi-HyperOs-pickup-code-grabber test/sms-corpus-public.jsonl and PickupExtractor.java (真实用户反馈语料)"
QUICK = "github:jencyfei/QuickCode docs/10684_SMS_ISSUE_SUMMARY.md (the app's SmsReader log of its developer's inbox, with send times; removed in commit ea00784)"
QUICK_ASK = "github:jencyfei/QuickCode .specstory/history (the developer's own messages quoted to an assistant; commit edbb1f5)"
DECLI = "github:decli/CodeHelper StationNameTest.kt (真机上的四条菜鸟驿站短信), find_string id 71372121936"
OCR_PAGE = "github: uni-app OCR page comment quoting a user's pasted text (大同镇), find_string id 55757605382"
ROWS = [
 (OKAI, "【圆通快递】凭1-2-21003到森泰首府快递驿站取尾号0236包裹",
  [("1-2-21003", "圆通速递", "森泰首府快递驿站", N)]),
 (QUICK, "【取件通知】您的中通快递73540090925377已到菜鸟驿站国基路北文雅小区6号楼一单元110室，请凭隐私号17834774137取件",
  [(N, "中通快递", "菜鸟驿站国基路北文雅小区6号楼一单元110室", "73540090925377")]),
 ("https://github.com/shareven/parcel/issues/55",
  "【妈妈驿站】取货码Y-894，您有圆通快递包裹，已到已到东山妈妈驿站",
  [("Y-894", "圆通速递", "东山妈妈驿站", N)]),
 (OKAI, "【南京百米需】您的中通包裹已到x镇x村xx号菜鸟驿站3号柜284号格口，取件码4869-9777",
  [("4869-9777", "中通快递", "x镇x村xx号菜鸟驿站3号柜284号格口", N)]),
 (QUICK, "【菜鸟驿站】凭2-5-7028到郑州市北文雅小区6号楼102店取，查看包裹照片u.cainiao.com/2EZLtfWVcEb",
  [("2-5-7028", "菜鸟驿站", "郑州市北文雅小区6号楼102店", N)]),
 (DECLI, "【菜鸟驿站】您有2个包裹在龙腾苑四区兔喜生活30号楼店，取件码为17-7-24040,4-3-24011",
  [("17-7-24040", "菜鸟驿站", "龙腾苑四区兔喜生活30号楼店", N), ("4-3-24011", "菜鸟驿站", "龙腾苑四区兔喜生活30号楼店", N)]),
 (OKAI, "【邮侠】凭取件码1681-5191到x镇x村xx号菜鸟驿站2号柜365号格口,询。",
  [("1681-5191", "邮侠", "x镇x村xx号菜鸟驿站2号柜365号格口", N)]),
 (QUICK, "【菜鸟驿站】您在郑州市北文雅小区6号楼102店的中通*53211包裹移动到新货架，请凭3-3-4003取。",
  [("3-3-4003", "中通快递", "郑州市北文雅小区6号楼102店", N)]),
 ("https://github.com/shareven/parcel/issues/55",
  "【兔喜生活】您有包裹已到达东山邮政店，取件码为9-3-05011，地址:苏果超市北150米东侧停车场",
  [("9-3-05011", "邮政EMS", "东山邮政店", N)]),
 (OKAI, "[兔喜生活]请凭552577至同兴冠寓3号楼1号兔喜快递柜取件，免费存24小时，超时收0.50元3.00元封顶",
  [("552577", "兔喜生活", "同兴冠寓3号楼1号兔喜快递柜", N)]),
 (QUICK, "【菜鸟驿站】您有2个包裹在郑州市北文雅小区6号楼102店，取件码为6-5-3002, 6-2-3006",
  [("6-5-3002", "菜鸟驿站", "郑州市北文雅小区6号楼102店", N), ("6-2-3006", "菜鸟驿站", "郑州市北文雅小区6号楼102店", N)]),
 (QUICK, "【饿了么】您的验证码是920123，在15分钟内有效。如非本人操作请忽略本短信。", []),
 ("https://github.com/shareven/parcel/issues/5",
  "【韵达快递】请凭60758080到二食堂快递室外99号柜B2取件",
  [("60758080", "韵达快递", "二食堂快递室外99号柜B2", N)]),
 (OKAI, "【妈妈驿站】3个包裹，取货码2-5-7077，2-5-7075，2-3-4346，中峰乡信用社斜对面圆通速递妈妈驿站",
  [("2-5-7077", "圆通速递", "中峰乡信用社斜对面圆通速递妈妈驿站", N), ("2-5-7075", "圆通速递", "中峰乡信用社斜对面圆通速递妈妈驿站", N),
   ("2-3-4346", "圆通速递", "中峰乡信用社斜对面圆通速递妈妈驿站", N)]),
 (QUICK, "【菜鸟驿站】您的圆通包裹已到郑州天府小区南门西侧便利店，请21:00前凭2-5-6002取件，详询15660756458",
  [("2-5-6002", "圆通速递", "郑州天府小区南门西侧便利店", N)]),
 (DECLI, "【菜鸟驿站】您的包裹已到站，凭6-4-12008到龙腾苑四区兔喜生活30号楼店取件。",
  [("6-4-12008", "菜鸟驿站", "龙腾苑四区兔喜生活30号楼店", N)]),
 (OKAI, "【中通快递】凭9-1-21006到森泰首府快递驿站取尾号0107包裹",
  [("9-1-21006", "中通快递", "森泰首府快递驿站", N)]),
 (QUICK, "【取件通知】您的韵达快递428145656362042已到菜鸟驿站郑州市北文雅小区6号楼102店菜鸟驿站如有疑问请联系18037279512，请凭隐私号18489606608取件",
  [(N, "韵达快递", "菜鸟驿站郑州市北文雅小区6号楼102店菜鸟驿站", "428145656362042")]),
 (OCR_PAGE, "【妈妈驿站】取货码1-686，您有圆通快递包裹，已到大同镇花棚子746号",
  [("1-686", "圆通速递", "大同镇花棚子746号", N)]),
 (QUICK, "【菜鸟驿站】您的韵达包裹已到郑州天府小区南门西侧便利店，请21:00前凭3-6-5010及时取件或点m.tb.cn/E.zGds5A 选择送货上门",
  [("3-6-5010", "韵达快递", "郑州天府小区南门西侧便利店", N)]),
 (OKAI, "【中国移动卡券提醒】（卡券到账提醒）尊敬的159****6739客户，您的一张“话费券”已到账，请前往中国移动APP-我的-卡券查看使用，或戳我直达：https://dx.10086.cn/A/3Oa0Hw（拒收请回复R）", []),
 (QUICK, "【菜鸟驿站】您的包裹已到站，凭6-4-1006到郑州市北文雅小区6号楼102店取件。",
  [("6-4-1006", "菜鸟驿站", "郑州市北文雅小区6号楼102店", N)]),
 (DECLI, "您的包裹已到站，凭15-2-05024到龙腾苑四区兔喜生活30号楼店取件。",
  [("15-2-05024", N, "龙腾苑四区兔喜生活30号楼店", N)]),
 # The log cuts each message at about sixty characters, so the station's number is cut short; its
 # remaining digits are masked by hand.
 (QUICK, "【极兔速递】您的运单尾号2311包裹已到天府小区南门悦来悦喜内，请凭取件码1-2-7037尽快领取，详询189xxxxx",
  [("1-2-7037", "极兔速递", "天府小区南门悦来悦喜内", N)]),
 (OCR_PAGE, "【中国邮政】您的快递2805已暂存四川省宁南县大同邮政所，取件码283471",
  [("283471", "邮政EMS", "四川省宁南县大同邮政所", N)]),
 (OKAI, "【蜂鸟配送】您的订单已经送达已送达，宿舍楼下外卖架位置，淘宝闪购搜索719987，领学生专属免单卡，再搜94666还可领叠加红包，如有问题请去订单详情页联系骑手.谢谢～", []),
 (QUICK_ASK, "【兔喜生活】您有包裹已到达金色森林金叶便利店，取件码为00-7956，地址:心连心大道金色森林门口金叶便利店",
  [("00-7956", "兔喜生活", "金色森林金叶便利店", N)]),
 (QUICK, "【中信银行】 004760（您本次的动态口令），请妥善保管，切勿泄露。", []),
 (QUICK, "【菜鸟驿站】您的圆通包裹已到郑州天府小区南门西侧便利店，请21:00前凭4-3-7021取件，详询15660756458",
  [("4-3-7021", "圆通速递", "郑州天府小区南门西侧便利店", N)]),
 (OKAI, "尊敬的客户，您在积分商城兑换的订单1064己发货，请注意查收。物流小可邮政快递包裹，单号123123123也可登录积分商城在“我的订单”处查看物流信息：http://if.189.cn/AFXQLl【中国电信积分商城】", []),
 ("github: campus SMS parser docstring (燕山区, a 递管家 shelf notice), find_string id 29089347199",
  "【递管家】您的快递:*83226已到燕山区4栋快递站，请凭6A28前往人工货架领取",
  [("6A28", "递管家", "燕山区4栋快递站", N)]),
 (QUICK, "【中信银行】您尾号6986的中信卡于07月15日07:57，跨行转入存入人民币4990.00元，当前余额为人民币4990", []),
 (QUICK, "【菜鸟驿站】您的包裹已到站，凭9-5-5038到郑州市北文雅小区6号楼102店取件。",
  [("9-5-5038", "菜鸟驿站", "郑州市北文雅小区6号楼102店", N)]),
 (OKAI, "[e测试]双节特惠:生物SEM、激光共聚焦、Tunel荧光等低至6折券已到您账户，节前提前锁优惠，拒收请回复R", []),
]
