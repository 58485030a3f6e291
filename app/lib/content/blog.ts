// 博客静态内容：/blog 的六篇 Python 教程与 /blog/article/:id 的三篇示例文章。
// 纯数据模块：不依赖 React，不做任何 I/O。

export type Block =
  | { type: "p"; text: string }
  | { type: "h2"; text: string }
  | { type: "code"; lang: string; text: string }
  | { type: "ul"; items: string[] };

export type Article = {
  id: number;
  title: string;
  excerpt: string;
  /** YYYY-MM-DD */
  date: string;
  tags: string[];
  author: string;
  /** 例如 "8 分钟" */
  readTime: string;
  category: string;
  body: Block[];
};

const TUTORIAL_AUTHOR = "校园帮技术组";
const TUTORIAL_CATEGORY = "Python 入门";

export const pythonTutorials: Article[] = [
  {
    id: 1,
    title: "Python 入门（一）：环境搭建与第一个程序",
    excerpt:
      "从下载安装到在终端里跑出第一行“你好”，十分钟把 Python 开发环境配好，顺便认识一下编辑器和交互式解释器。",
    date: "2025-03-03",
    tags: ["Python", "入门", "环境配置"],
    author: TUTORIAL_AUTHOR,
    readTime: "6 分钟",
    category: TUTORIAL_CATEGORY,
    body: [
      {
        type: "p",
        text: "Python 语法简洁、库多、社区活跃，从课程作业、数据分析到写个小爬虫都用得上，非常适合作为第一门编程语言。这个系列会用校园生活里的小例子，带你从零开始写出能真正跑起来的程序。",
      },
      { type: "h2", text: "安装 Python" },
      {
        type: "ul",
        items: [
          "Windows：到 python.org 下载 3.12 或更新版本的安装包，安装第一步务必勾选“Add python.exe to PATH”，否则终端里会找不到 python 命令。",
          "macOS：可以用官网安装包，也可以在装好 Homebrew 后执行 brew install python。",
          "Linux：大多数发行版自带 python3；如果没有，Ubuntu/Debian 下执行 sudo apt install python3 即可。",
          "安装完成后打开终端，输入 python --version（macOS/Linux 上通常是 python3 --version），能看到版本号就说明装好了。",
        ],
      },
      { type: "h2", text: "写下第一个程序" },
      {
        type: "p",
        text: "新建一个文件夹，在里面创建 hello.py，输入下面的代码并保存。然后在终端里进入这个文件夹，执行 python hello.py。程序会先打招呼，再问你的名字。",
      },
      {
        type: "code",
        lang: "python",
        text: `print("你好，校园帮！")
name = input("请输入你的名字：")
print("欢迎你，" + name + "！")`,
      },
      {
        type: "p",
        text: "print() 负责把内容输出到屏幕，input() 会等待你在键盘上输入一行文字并把它作为字符串返回。再来一个稍微“有用”一点的例子——估算一学期的伙食费：",
      },
      {
        type: "code",
        lang: "python",
        text: `# 井号后面的内容是注释，不会被执行；一学期按 18 周计算
days = 18 * 7
per_day = 35.5
total = days * per_day
print("本学期大约需要伙食费", total, "元")`,
      },
      { type: "h2", text: "选一个顺手的编辑器" },
      {
        type: "p",
        text: "推荐 VS Code 加上官方的 Python 扩展：有语法高亮、自动补全，还能一键运行。另外，在终端里直接输入 python 会进入交互式解释器，适合随手试一两行代码，输入 exit() 即可退出。",
      },
    ],
  },
  {
    id: 2,
    title: "Python 入门（二）：变量与数据类型",
    excerpt:
      "整数、浮点数、字符串、布尔值和 None 分别是什么？为什么 input() 拿到的数字不能直接相加？这一篇讲清楚变量和类型转换。",
    date: "2025-03-10",
    tags: ["Python", "入门", "变量", "数据类型"],
    author: TUTORIAL_AUTHOR,
    readTime: "8 分钟",
    category: TUTORIAL_CATEGORY,
    body: [
      {
        type: "p",
        text: "变量可以理解成贴在数据上的一张标签：name = \"林小雨\" 的意思是把“name”这张标签贴到字符串“林小雨”上。Python 不需要提前声明类型，赋值的那一刻就确定了变量当前指向什么。",
      },
      { type: "h2", text: "最常用的五种类型" },
      {
        type: "ul",
        items: [
          "int（整数）：比如学号 2023012345、人数 42。",
          "float（浮点数）：带小数点的数，比如绩点 3.62。注意浮点数是近似存储的，0.1 + 0.2 的结果是 0.30000000000000004，涉及金额时可以先换算成“分”再用整数计算。",
          "str（字符串）：用单引号或双引号括起来的文字。",
          "bool（布尔值）：只有 True 和 False 两个值，常用于判断。",
          "None：表示“什么都没有”，比如还没查到成绩时可以先设为 None。",
        ],
      },
      {
        type: "code",
        lang: "python",
        text: `student_id = 2023012345
gpa = 3.62
name = "林小雨"
is_member = True
nickname = None
print(type(student_id), type(gpa), type(name), type(is_member), type(nickname))`,
      },
      { type: "h2", text: "类型转换" },
      {
        type: "p",
        text: "input() 返回的永远是字符串，哪怕你输入的是 19。字符串和数字不能直接相加，需要先用 int() 或 float() 转换；反过来，把数字拼进句子里时要用 str()。",
      },
      {
        type: "code",
        lang: "python",
        text: `age_text = "19"
age = int(age_text)
print(age + 1)

price = float("2.5")
print(price * 3)

print("我今年" + str(age) + "岁")`,
      },
      { type: "h2", text: "更好用的 f-string" },
      {
        type: "p",
        text: "用加号拼接字符串很容易写乱。在字符串前加一个 f，就能在花括号里直接写变量或表达式，冒号后面还可以指定格式，比如 .2f 表示保留两位小数。",
      },
      {
        type: "code",
        lang: "python",
        text: `name = "林小雨"
gpa = 3.6249
credits = 21.5
print(f"{name} 本学期共修 {credits} 学分，绩点 {gpa:.2f}")`,
      },
    ],
  },
  {
    id: 3,
    title: "Python 入门（三）：条件判断与循环",
    excerpt:
      "if/elif/else 让程序学会做选择，for 和 while 让程序不怕重复。用成绩评级和饭卡余额两个例子，把流程控制一次讲透。",
    date: "2025-03-17",
    tags: ["Python", "入门", "流程控制"],
    author: TUTORIAL_AUTHOR,
    readTime: "9 分钟",
    category: TUTORIAL_CATEGORY,
    body: [
      {
        type: "p",
        text: "到目前为止，我们的程序都是从上到下一行一行执行的。真正有用的程序需要根据情况做出不同的反应，还要能重复做同一件事，这就是条件判断和循环。",
      },
      { type: "h2", text: "if / elif / else" },
      {
        type: "p",
        text: "Python 依靠缩进来划分代码块：条件后面要写冒号，属于这个分支的代码统一缩进 4 个空格。多个条件会从上往下依次判断，命中一个之后其余的就不再检查。",
      },
      {
        type: "code",
        lang: "python",
        text: `score = 86
if score >= 90:
    level = "优秀"
elif score >= 80:
    level = "良好"
elif score >= 60:
    level = "及格"
else:
    level = "不及格"
print(f"成绩 {score} 分，等级：{level}")`,
      },
      { type: "h2", text: "for 循环：遍历一组数据" },
      {
        type: "code",
        lang: "python",
        text: `courses = ["高等数学", "大学英语", "程序设计基础"]
for i, course in enumerate(courses, start=1):
    print(i, course)

total = 0
for n in range(1, 101):
    total += n
print("1 到 100 的和是", total)`,
      },
      {
        type: "p",
        text: "enumerate() 可以在遍历时顺便拿到序号；range(1, 101) 生成 1 到 100 的整数——注意它包含起点、不包含终点。",
      },
      { type: "h2", text: "while 循环：满足条件就继续" },
      {
        type: "code",
        lang: "python",
        text: `balance = 50.0
meals = 0
while balance >= 12:
    meals += 1
    balance -= 12
print(f"饭卡还能吃 {meals} 顿，剩余 {balance:.1f} 元")`,
      },
      {
        type: "ul",
        items: [
          "break 立即跳出整个循环，continue 跳过本轮、直接进入下一轮。",
          "忘记写冒号或缩进不一致，是新手最常见的报错原因。",
          "while 的条件如果永远为真，程序就会陷入死循环，在终端里按 Ctrl+C 可以强制停止。",
        ],
      },
    ],
  },
  {
    id: 4,
    title: "Python 入门（四）：函数",
    excerpt:
      "把重复的代码装进函数里，起个好名字，以后一行就能调用。本篇介绍函数的定义、参数、返回值和作用域，并写一个绩点计算器。",
    date: "2025-03-24",
    tags: ["Python", "入门", "函数"],
    author: TUTORIAL_AUTHOR,
    readTime: "10 分钟",
    category: TUTORIAL_CATEGORY,
    body: [
      {
        type: "p",
        text: "如果你发现自己在复制粘贴同一段代码，就该考虑把它写成函数了。函数用 def 定义，括号里是参数，return 把结果交还给调用者；紧跟在定义下面的三引号字符串叫文档字符串，用来说明函数的用途。",
      },
      { type: "h2", text: "定义与调用" },
      {
        type: "code",
        lang: "python",
        text: `def calc_gpa(scores):
    """根据百分制成绩计算平均绩点（简化的四分制）"""
    points = []
    for s in scores:
        if s >= 90:
            points.append(4.0)
        elif s >= 80:
            points.append(3.0)
        elif s >= 70:
            points.append(2.0)
        elif s >= 60:
            points.append(1.0)
        else:
            points.append(0.0)
    return sum(points) / len(points)


print(calc_gpa([92, 85, 78, 66]))`,
      },
      { type: "h2", text: "默认参数与关键字参数" },
      {
        type: "p",
        text: "给参数设置默认值后，调用时可以省略它；调用时写成“参数名=值”的形式叫关键字参数，不必记住参数顺序，可读性也更好。",
      },
      {
        type: "code",
        lang: "python",
        text: `def pickup_fee(count, price=2.0, discount=1.0):
    """计算代取快递的费用，discount=0.5 表示五折"""
    return round(count * price * discount, 2)


print(pickup_fee(3))
print(pickup_fee(3, discount=0.5))
print(pickup_fee(count=2, price=1.2))`,
      },
      { type: "h2", text: "一次返回多个值" },
      {
        type: "code",
        lang: "python",
        text: `def min_max(nums):
    return min(nums), max(nums)


low, high = min_max([72, 95, 88, 61])
print(f"最低分 {low}，最高分 {high}")`,
      },
      {
        type: "p",
        text: "return 后面写多个值时，Python 会把它们打包成一个元组，调用处可以直接拆开赋给多个变量。另外要记住：函数内部创建的变量是局部变量，函数执行完就消失了，外面访问不到。",
      },
      {
        type: "ul",
        items: [
          "一个函数只做一件事，名字用动词开头，比如 calc_gpa、load_notes。",
          "函数体超过一屏时，通常说明它可以再拆分。",
          "不要把列表、字典这类可变对象用作默认参数，需要时先写成 None，再在函数里创建。",
        ],
      },
    ],
  },
  {
    id: 5,
    title: "Python 入门（五）：列表、字典与其他容器",
    excerpt:
      "课表适合用字典存，待办事项适合用列表，社团名单去重交给集合。学会这几种容器，处理批量数据就轻松多了。",
    date: "2025-03-31",
    tags: ["Python", "入门", "列表", "字典"],
    author: TUTORIAL_AUTHOR,
    readTime: "10 分钟",
    category: TUTORIAL_CATEGORY,
    body: [
      {
        type: "p",
        text: "现实中的数据很少是单个出现的：一周的课、一串快递取件码、全班的成绩……Python 内置了列表、字典、元组和集合四种常用容器，各有擅长的场景。",
      },
      { type: "h2", text: "列表：有顺序、可修改" },
      {
        type: "code",
        lang: "python",
        text: `todo = ["交实验报告", "取快递", "背单词"]
todo.append("社团例会")
todo.remove("取快递")
print(todo)
print(todo[0], todo[-1])
print(len(todo))
print(todo[1:3])`,
      },
      {
        type: "p",
        text: "下标从 0 开始，-1 表示最后一个元素；切片 todo[1:3] 取出下标 1 和 2 两个元素，同样不包含终点。",
      },
      { type: "h2", text: "字典：按“键”快速查找" },
      {
        type: "code",
        lang: "python",
        text: `timetable = {
    "周一": ["高等数学", "大学物理"],
    "周三": ["程序设计基础"],
}
timetable["周五"] = ["体育"]
for day, courses in timetable.items():
    print(day, "、".join(courses))
print(timetable.get("周日", "没课，好好休息"))`,
      },
      { type: "h2", text: "元组、集合与列表推导式" },
      {
        type: "code",
        lang: "python",
        text: `point = (3, 4)
x, y = point
print(x, y)

clubs_a = {"吉他社", "摄影社", "编程社"}
clubs_b = {"编程社", "羽毛球社"}
print(sorted(clubs_a & clubs_b))
print(sorted(clubs_a | clubs_b))

scores = [58, 92, 75, 64, 88]
passed = [s for s in scores if s >= 60]
print(passed)`,
      },
      {
        type: "ul",
        items: [
          "需要保持顺序、经常增删：用列表。",
          "需要按名字或编号查找：用字典，get() 可以在键不存在时返回默认值而不报错。",
          "需要去重或求交集、并集：用集合，注意集合本身没有顺序。",
          "数据创建后不应再改变，比如坐标：用元组。",
        ],
      },
    ],
  },
  {
    id: 6,
    title: "Python 入门（六）：文件读写与异常处理",
    excerpt:
      "把数据存进文件，下次打开程序还在；遇到输错的数字、找不到的文件，程序也不会直接崩溃。入门系列的最后一篇。",
    date: "2025-04-07",
    tags: ["Python", "入门", "文件", "异常"],
    author: TUTORIAL_AUTHOR,
    readTime: "9 分钟",
    category: TUTORIAL_CATEGORY,
    body: [
      {
        type: "p",
        text: "变量里的数据在程序结束后就没了，想长期保存就要写进文件。而一旦涉及用户输入和文件，出错就在所难免，所以这一篇把文件读写和异常处理放在一起讲。",
      },
      { type: "h2", text: "用 with 读写文本文件" },
      {
        type: "code",
        lang: "python",
        text: `notes = ["周一 8:00 高数", "周二 10:00 英语", "周四 14:00 实验"]
with open("notes.txt", "w", encoding="utf-8") as f:
    for line in notes:
        print(line, file=f)

with open("notes.txt", encoding="utf-8") as f:
    for line in f:
        print(line.strip())`,
      },
      {
        type: "p",
        text: "模式 \"w\" 表示写入（会覆盖原有内容），\"a\" 表示追加，不写则默认是读取。with 语句会在代码块结束时自动关闭文件。务必显式指定 encoding=\"utf-8\"：Windows 中文系统的默认编码往往是 GBK，不指定的话很容易出现乱码。",
      },
      { type: "h2", text: "try / except：优雅地处理错误" },
      {
        type: "code",
        lang: "python",
        text: `def read_score(text):
    try:
        score = float(text)
    except ValueError:
        print(f"“{text}”不是有效的数字")
        return None
    if not 0 <= score <= 100:
        print("成绩应在 0 到 100 之间")
        return None
    return score


print(read_score("87.5"))
print(read_score("八十"))
print(read_score("120"))`,
      },
      { type: "h2", text: "文件不存在怎么办" },
      {
        type: "code",
        lang: "python",
        text: `try:
    with open("不存在的文件.txt", encoding="utf-8") as f:
        content = f.read()
except FileNotFoundError:
    content = ""
    print("文件不存在，先使用空内容")
finally:
    print("读取流程结束")`,
      },
      {
        type: "ul",
        items: [
          "只捕获你预料到的异常类型，不要写光秃秃的 except:，否则真正的 bug 也会被悄悄吞掉。",
          "finally 中的代码无论是否出错都会执行，适合做收尾工作。",
          "发现参数不合法时，可以用 raise ValueError(\"说明\") 主动抛出异常，交给调用者处理。",
          "恭喜你读完入门系列！接下来可以试着写个记账本或者课表小工具，把学到的东西串起来。",
        ],
      },
    ],
  },
];

export const sampleArticles: Article[] = [
  {
    id: 1,
    title: "校园帮上线啦：一个从宿舍楼道开始的小项目",
    excerpt:
      "起因是一次下雨天去驿站取快递。几个室友一合计，干脆做一个能查课表、找人帮忙、顺手把快递带回来的小工具。",
    date: "2025-02-20",
    tags: ["校园帮", "产品故事"],
    author: "校园帮团队",
    readTime: "5 分钟",
    category: "团队动态",
    body: [
      {
        type: "p",
        text: "去年十一月的一个雨天，我们宿舍四个人的快递同时到了驿站。驿站离宿舍楼有一公里多，最后是阿杰一个人撑着伞、抱着四个箱子回来的，到楼下的时候鞋子已经湿透了。那天晚上我们聊到很晚：既然总有人顺路，为什么不能让“顺路”这件事变得简单一点？",
      },
      { type: "h2", text: "先解决自己的问题" },
      {
        type: "p",
        text: "我们最早只做了两个功能：一个能导入教务系统课表的周视图，还有一个快递代取的下单页。没有设计师，界面是照着手机备忘录的样子画的；第一批用户是同一层楼的二十几个同学，很多反馈都是在楼道里当面说的。",
      },
      { type: "h2", text: "这一版有什么" },
      {
        type: "ul",
        items: [
          "课表：登录一次即可同步本学期课程，还能设置上课提醒。",
          "快递代拿：粘贴取件短信即可自动识别取件码，按件计费，直接送到宿舍。",
          "校园圈：二手、求助、吐槽、表白，都能在这里说。",
          "互助签到：找同学帮忙，或者顺手帮别人一把。",
          "新人优惠券：首次学号登录就送两张五折券、三张八折券。",
        ],
      },
      {
        type: "p",
        text: "我们知道它还有很多不完善的地方。如果你遇到问题，或者有想要的功能，欢迎在“书包 → 联系客服”里告诉我们——每一条留言我们都会认真看。谢谢你愿意试试校园帮。",
      },
    ],
  },
  {
    id: 2,
    title: "新生开学生存指南：这八件事越早做越好",
    excerpt:
      "办校园卡、熟悉教学楼、加好班级群、摸清快递驿站的位置……学长学姐们总结的开学清单，帮你少走一些弯路。",
    date: "2025-08-28",
    tags: ["新生", "校园生活", "攻略"],
    author: "小满",
    readTime: "6 分钟",
    category: "校园生活",
    body: [
      {
        type: "p",
        text: "刚到大学的前两周往往是最手忙脚乱的：新的宿舍、新的同学，还有一大堆需要办的手续。我们在校园圈里征集了上百条学长学姐的建议，整理成这份清单，希望能帮你更快安顿下来。",
      },
      { type: "h2", text: "开学第一周" },
      {
        type: "ul",
        items: [
          "尽快激活校园卡并充值，食堂、图书馆、门禁基本都离不开它。",
          "拿到课表后，提前去一趟上课的教学楼，找到教室的位置，第一节课就不会迟到。",
          "修改教务系统的初始密码，新密码一般要求同时包含大小写字母和特殊字符，记得保存好。",
          "记下最近的快递驿站和营业时间，开学季包裹多，最好错开高峰时段去取。",
        ],
      },
      { type: "h2", text: "第一个月之内" },
      {
        type: "ul",
        items: [
          "办好图书馆借阅权限，找一个你喜欢的自习位置。",
          "社团招新时多逛逛，但不要一口气报太多，两三个真正感兴趣的就够了。",
          "和辅导员、班长保持联系，奖学金、评优和各种通知都会从他们那里发出。",
          "留意学校的防诈骗提醒：任何要求转账的“学长”“老师”，都请先当面或电话核实。",
        ],
      },
      {
        type: "p",
        text: "最后想说，适应需要时间，不必强迫自己一下子融入所有圈子。慢慢来，你会找到属于自己的节奏。",
      },
    ],
  },
  {
    id: 3,
    title: "期末不熬夜：我们试过最有效的四种学习方法",
    excerpt:
      "通宵背书的效果往往不如想象中好。主动回忆、间隔重复、费曼学习法和番茄工作法，哪一种适合你？",
    date: "2025-12-08",
    tags: ["学习方法", "期末", "效率"],
    author: "阿杰",
    readTime: "7 分钟",
    category: "学习方法",
    body: [
      {
        type: "p",
        text: "每到期末，宿舍楼的灯总是亮到很晚。可很多人都有这样的体会：熬夜看了一整晚，第二天走进考场却大脑一片空白。学习效果并不取决于花了多少时间，而在于用了什么方法。下面是我们和身边同学亲测有效的四种方法。",
      },
      { type: "h2", text: "1. 主动回忆：合上书，自己讲一遍" },
      {
        type: "p",
        text: "反复阅读会让人产生“我都会了”的错觉。更有效的做法是读完一节后合上书，把要点默写或者说出来，再对照课本检查漏掉了什么。做题也是一种主动回忆，所以历年真题要尽早开始做，而不是留到最后一天。",
      },
      { type: "h2", text: "2. 间隔重复：分几天复习，比一次复习更牢" },
      {
        type: "p",
        text: "同样是复习三遍，分散在第 1 天、第 3 天和第 7 天，效果远好于一个晚上连看三遍。可以把需要记忆的概念做成卡片，每天只复习“快要忘记”的那一部分。",
      },
      { type: "h2", text: "3. 费曼学习法与番茄工作法" },
      {
        type: "ul",
        items: [
          "费曼学习法：假装给一个完全不懂的同学讲解某个知识点，卡壳的地方就是你还没真正理解的地方。",
          "番茄工作法：专注 25 分钟，休息 5 分钟，每完成四轮就休息久一点。手机放在够不着的地方。",
          "这两种方法可以搭配使用：用一个番茄钟把一个知识点讲明白。",
        ],
      },
      {
        type: "p",
        text: "最后也是最重要的一点：保证睡眠。睡眠是大脑巩固记忆的关键时间，考前一晚早点睡，比多背两页书更有用。祝大家期末顺利！",
      },
    ],
  },
];

export function findSampleArticle(id: number): Article | undefined {
  return sampleArticles.find((article) => article.id === id);
}

export function findTutorial(id: number): Article | undefined {
  return pythonTutorials.find((article) => article.id === id);
}
